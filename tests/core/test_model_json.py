"""core.data.model_json: a frozen model's JSON is made once per object and equals pydantic's;
a model that can change is dumped afresh every time."""

from __future__ import annotations

import gc

from pydantic import BaseModel, ConfigDict

from manoeuvre_sim.core import data as D


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True)
    name: str
    parts: tuple[int, ...] = ()


class Loose(BaseModel):
    name: str


def test_a_frozen_model_is_dumped_once_and_as_pydantic_dumps_it(monkeypatch):
    calls = []
    real = Frozen.model_dump_json
    monkeypatch.setattr(Frozen, "model_dump_json", lambda self: calls.append(1) or real(self))
    a, b = Frozen(name="France", parts=(1, 2)), Frozen(name="Russia")
    assert D.model_json(a) == real(a).encode() and D.model_json(b) == real(b).encode()
    assert D.model_json(a) == real(a).encode()
    assert len(calls) == 2  # a and b once each
    # an equal object is another object: its own dump, never another's by a reused id
    del a
    gc.collect()
    c = Frozen(name="Austria")
    assert D.model_json(c) == b'{"name":"Austria","parts":[]}'


def test_a_model_that_can_change_is_never_kept():
    m = Loose(name="France")
    assert D.model_json(m) == b'{"name":"France"}'
    m.name = "Russia"
    assert D.model_json(m) == b'{"name":"Russia"}'
