"""A job's rename and delete (the jobs pages): a job takes a name at submission (the
forms' *Job name*) and can be renamed later; a finished, cancelled, interrupted or failed
job can be deleted with its study folder, after a page that says what will go.

Routes::

    /jobs/{id}/rename           the rename form (POST: rename, then the jobs page)
    /jobs/{id}/delete           what deleting removes, and the button (POST: delete)

Every POST goes through the jobs pages' form check (``jobs._form``: the same-origin check
first, then the form); the manager refuses a queued or running job's delete and a folder
outside the studies folder's ``jobs/`` (``JobManager.delete``).
"""

from __future__ import annotations

from urllib.parse import urlencode

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.web.jobs.pages import _form, _page, manager
from manoeuvre_sim.web.params import Params


def _job(request: Request):
    job = manager(request).get(request.path_params["jid"])
    if job is None:
        raise UsageError(f"--job: no such job {request.path_params['jid']!r}")
    return job


def _size(request: Request, job) -> tuple[int, int]:
    """(files, bytes) of the job's study folder (0, 0 when it is gone)."""
    path = manager(request).folder(job)
    files = [p for p in path.rglob("*") if p.is_file()] if path.is_dir() else []
    return len(files), sum(p.stat().st_size for p in files)


def _edit_page(request: Request, action: str, error: str | None = None, status: int = 200):
    job = _job(request)
    files, size = (0, 0)
    if action == "delete":
        try:
            files, size = _size(request, job)
        except UsageError as e:
            error, status = error or str(e), 400 if status == 200 else status
    return _page("jobs_edit.html", status, title=f"Job {job.name or job.id}", job=job,
                 action=action, error=error, files=files, size=size)  # fmt: skip


def rename_form(request: Request) -> Response:
    Params(request.query_params).only(())
    return _edit_page(request, "rename")


def delete_form(request: Request) -> Response:
    Params(request.query_params).only(())
    return _edit_page(request, "delete")


async def post_rename(request: Request) -> Response:
    p = await _form(request)
    job = _job(request)
    try:
        manager(request).rename(job.id, p.string("job_name") or "")
    except UsageError as e:
        return _edit_page(request, "rename", str(e), 400)
    return RedirectResponse(f"/jobs?{urlencode({'job': job.id})}", status_code=303)


async def post_delete(request: Request) -> Response:
    p = await _form(request)
    job = _job(request)
    try:
        if p.string("confirm") != "delete":
            raise UsageError("--confirm: expected 'delete', as the delete page's button sends")
        manager(request).delete(job.id)
    except UsageError as e:
        return _edit_page(request, "delete", str(e), 409 if job.state in ("queued", "running")
                          else 400)  # fmt: skip
    return RedirectResponse("/jobs", status_code=303)


ROUTES = [
    Route("/jobs/{jid:str}/rename", rename_form),
    Route("/jobs/{jid:str}/rename", post_rename, methods=["POST"]),
    Route("/jobs/{jid:str}/delete", delete_form),
    Route("/jobs/{jid:str}/delete", post_delete, methods=["POST"]),
]
