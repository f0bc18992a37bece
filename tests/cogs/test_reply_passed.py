"""One ``Reply`` per interaction, made where the interaction is admitted and passed down explicitly (issue 31).

``reply_to`` (the look-up of an interaction's ``Reply``) is called only where discord.py hands the bot the
interaction alone: a slash command's callback (decorated with ``app_commands.command`` or a group's ``command``, or
given as ``callback=`` to ``app_commands.Command``), once, and an error hook (``on_error``); besides, only in
``cogs/errors.py`` (the error handlers and the component decorator) and ``cogs/reply.py`` itself. Everything below
an entry point takes the ``Reply``.
"""

from __future__ import annotations

import ast
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import discord
import pytest

from cogs.errors import admitted_first, answers_errors
from cogs.reply import Reply, release, reply_to

ROOT = Path(__file__).resolve().parents[2]
COGS = ROOT / "cogs"
LOOK_UP = "reply_to"
EXEMPT = (COGS / "reply.py", COGS / "errors.py")  # the registry itself; the error handlers and the decorator
ERROR_HOOKS = {"on_error"}  # discord.py's: a group's or a tree's, called with the interaction and the error
Function = ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda


def _is_app_commands(node: ast.expr, name: str) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == name and isinstance(node.value, ast.Name) \
        and node.value.id == "app_commands"


def _groups(tree: ast.Module) -> set[str]:
    """The names a module binds to an ``app_commands.Group(...)``: their ``.command`` decorates a command."""
    return {target.id for node in ast.walk(tree) if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)
            and _is_app_commands(node.value.func, "Group")
            for target in node.targets if isinstance(target, ast.Name)}


def _given_as_callbacks(tree: ast.Module) -> set[str]:
    """The functions given as ``callback=`` to ``app_commands.Command(...)`` (commands made by a function)."""
    return {keyword.value.id for node in ast.walk(tree) if isinstance(node, ast.Call)
            and _is_app_commands(node.func, "Command")
            for keyword in node.keywords if keyword.arg == "callback" and isinstance(keyword.value, ast.Name)}


def _is_command(function: Function, groups: set[str], callbacks: set[str]) -> bool:
    if isinstance(function, ast.Lambda):
        return False
    if function.name in callbacks:
        return True
    for decorator in function.decorator_list:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        if _is_app_commands(target, "command") or (
                isinstance(target, ast.Attribute) and target.attr == "command"
                and isinstance(target.value, ast.Name) and target.value.id in groups):
            return True
    return False


def _is_look_up(node: ast.AST) -> bool:
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    return (isinstance(func, ast.Name) and func.id == LOOK_UP) or (isinstance(func, ast.Attribute)
                                                                   and func.attr == LOOK_UP)


def offenders_in(source: str, where: str) -> list[str]:
    """Each call of ``reply_to`` in ``source`` that is not at an entry point, or a second one in the same entry
    point, as ``where:line: function``."""
    tree = ast.parse(source)
    groups, callbacks = _groups(tree), _given_as_callbacks(tree)
    found: list[str] = []

    def visit(node: ast.AST, function: Function | None) -> None:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            name = "<lambda>" if isinstance(node, ast.Lambda) else node.name
            entry = not isinstance(node, ast.Lambda) and (_is_command(node, groups, callbacks) or name in ERROR_HOOKS)
            calls = sorted((call for call in _own_nodes(node) if _is_look_up(call)),
                           key=lambda call: getattr(call, "lineno", 0))
            for number, call in enumerate(calls):
                if not entry or number > 0:
                    why = "a second look-up" if entry else "not an entry point"
                    found.append(f"{where}:{getattr(call, 'lineno', 0)}: {name} ({why})")
            function = node
        elif function is None and _is_look_up(node):
            found.append(f"{where}:{getattr(node, 'lineno', 0)}: <module> (not an entry point)")
        for child in ast.iter_child_nodes(node):
            visit(child, function)

    visit(tree, None)
    return found


def _own_nodes(function: Function) -> list[ast.AST]:
    """The nodes of ``function``'s own body, not those of the functions defined in it (each is judged itself)."""
    own: list[ast.AST] = []
    pending: list[ast.AST] = list(ast.iter_child_nodes(function))
    while pending:
        node = pending.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            continue
        own.append(node)
        pending.extend(ast.iter_child_nodes(node))
    return own


def test_reply_to_is_called_only_at_the_entry_points() -> None:
    found = [offender for path in sorted(COGS.rglob("*.py")) if path not in EXEMPT
             for offender in offenders_in(path.read_text(), str(path.relative_to(ROOT)))]
    assert not found, ("reply_to( outside the entry points: take the Reply as a parameter and pass it down "
                       "(a command takes it once, on its first line):\n" + "\n".join(found))


def test_the_commands_do_take_their_reply() -> None:
    """The check above sees the commands: they are where the look-ups are (it would pass on no look-up at all)."""
    looked_up = [path.relative_to(COGS).as_posix() for path in sorted(COGS.rglob("*.py")) if path not in EXEMPT
                 and f"{LOOK_UP}(" in path.read_text()]
    assert {"bank.py", "night_commands.py", "table/_table_commands.py", "table/_move_commands.py",
            "plans/_cog.py"} <= set(looked_up)


@pytest.mark.parametrize(("source", "expected"), [
    ("async def helper(interaction):\n    await reply_to(interaction).send('x')\n", ["m.py:2: helper"]),
    ("@app_commands.command(name='x')\nasync def x(interaction):\n    def inner():\n        reply_to(interaction)\n",
     ["m.py:4: inner"]),
    ("@app_commands.command(name='x')\nasync def x(interaction):\n    r = reply_to(interaction)\n"
     "    r2 = reply_to(interaction)\n", ["m.py:4: x"]),
    ("g = app_commands.Group(name='g', description='g')\n@g.command(name='x')\nasync def x(interaction):\n"
     "    reply = reply_to(interaction)\n", []),
    ("h = object()\n@h.command(name='x')\nasync def x(interaction):\n    reply = reply_to(interaction)\n",
     ["m.py:4: x"]),  # not a group's command
    ("def make():\n    async def plain(interaction):\n        reply = reply_to(interaction)\n"
     "    return app_commands.Command(name='p', description='p', callback=plain)\n", []),
    ("class G:\n    @app_commands.command(name='x')\n    async def x(self, interaction):\n"
     "        reply = reply_to(interaction)\n    async def helper(self, interaction):\n"
     "        await cogs.reply.reply_to(interaction).send('x')\n", ["m.py:6: helper"]),
    ("class G:\n    async def on_error(self, interaction, error):\n        reply = reply_to(interaction)\n", []),
    ("x = reply_to(None)\n", ["m.py:1: <module>"]),
])
def test_the_check_finds_each_look_up_below_an_entry_point(source: str, expected: list[str]) -> None:
    found = [offender.split(" (")[0] for offender in offenders_in(source, "m.py")]
    assert found == expected


# ------------------------------------------------------------------ the decorator gives the body its Reply


def _interaction(interaction_id: int, *, first: bool = True) -> discord.Interaction:
    client = SimpleNamespace(first_delivery=lambda interaction: first, is_closed=lambda: True)
    return cast(discord.Interaction, SimpleNamespace(id=interaction_id, client=client,
                                                     type=discord.InteractionType.component))


class _Item:
    def __init__(self) -> None:
        self.given: list[Reply] = []

    @answers_errors
    async def callback(self, reply: Reply) -> None:
        self.given.append(reply)


async def test_a_components_body_is_given_the_reply_its_check_made() -> None:
    item, interaction = _Item(), _interaction(9_201)
    made = admitted_first(interaction)  # the item's check
    assert made is not None and made.armed
    await cast(Any, item).callback(interaction)
    assert item.given == [made]
    assert reply_to(interaction) is not made  # let go once handled
    release(interaction)


async def test_a_body_without_a_check_is_given_the_reply_its_admission_made() -> None:
    item, interaction = _Item(), _interaction(9_202)
    await cast(Any, item).callback(interaction)
    assert len(item.given) == 1 and item.given[0].interaction is interaction and item.given[0].armed
    release(interaction)


async def test_a_second_delivery_runs_no_body() -> None:
    item, interaction = _Item(), _interaction(9_203, first=False)
    assert admitted_first(interaction) is None
    await cast(Any, item).callback(interaction)
    assert item.given == []
