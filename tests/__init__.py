"""The test suite is a package (as are its folders core/, studies/, manoeuvre/, hexgame/):
a test imports a helper or another test by its full name, ``from tests.manoeuvre.boards
import parse_board``; each test module has one name, so two folders may hold files of the
same basename; pytest puts the repository root on ``sys.path`` (rootdir-relative imports)."""
