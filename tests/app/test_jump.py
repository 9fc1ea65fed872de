"""The ctrl+k jump palette: ranked by the core's index, literal titles, jump_to on enter, hints."""

from __future__ import annotations

from textual.app import App
from textual.binding import Binding
from textual.command import CommandList, CommandPalette
from textual.content import Content
from textual.widgets import Input, Static

from samantha_tui.core.views.search import SearchIndex
from samantha_tui.core.writing.store import Store
from samantha_tui.ui.jump import PLACEHOLDER, JumpProvider, open_jump_palette

from ..conftest import LT, ST, TASKS, TODAY
from ..pilot import settle


def note(title: str, date: str = "2026-06-01", **fields: str) -> str:
    lines = "".join(f"{key}: {value}\n" for key, value in {"date": date, **fields}.items())
    return f"---\n{lines}---\n\n# {title}\n\nBody text.\n"


FILES = {
    f"{ST}/2026-06-10-gateway-retries.md": note("Gateway retries need a budget", "2026-06-10"),
    f"{ST}/2026-06-12-billing.md": note("Billing export runs nightly", "2026-06-12"),
    f"{ST}/2026-05-01-old.md": note("An old note about retries", "2026-05-01"),
    f"{ST}/2026-06-14-markup.md": note("[bold]oops[/] and [/]", "2026-06-14"),
    f"{ST}/2026-06-13-[red]odd[/].md": note("Odd file name", "2026-06-13"),
    f"{LT}/always-test.md": note("Always run the tests", "2026-01-01", critical="true"),
    f"{LT}/gateway-design.md": note("Gateway design", "2026-02-01"),
    f"{TASKS}/atlas/status.md": note("Atlas", "2026-06-01", status="active"),
}


class JumpApp(App[None]):
    """The contract SamanthaApp keeps with the palette: store, search_index, jump_to."""

    BINDINGS = [Binding("ctrl+k", "jump", "Jump", id="memory.jump")]

    def __init__(self, store: Store, indexed: bool = True) -> None:
        super().__init__()
        self.store = store
        self.search_index = SearchIndex.build(store.tree.memories, TODAY) if indexed else None
        self.jumped: list[str] = []

    def compose(self):
        yield Static("the app")

    def jump_to(self, path: str) -> None:
        self.jumped.append(path)

    def action_jump(self) -> None:
        open_jump_palette(self)


def listed(app: App) -> list[tuple[str, str]]:
    """(title as shown, help as shown) of every line the palette lists."""
    commands = app.screen.query_one(CommandList)
    hits = [commands.get_option_at_index(i).hit for i in range(commands.option_count)]
    return [(str(hit.text), str(hit.help)) for hit in hits]


async def type_query(pilot, query: str) -> None:
    """Put the whole query in the palette's input at once (a key press each is slow to drive)."""
    pilot.app.screen.query_one(Input).value = query
    await settle(pilot)


async def open_palette(pilot) -> None:
    await pilot.press("ctrl+k")
    await settle(pilot)
    assert isinstance(pilot.app.screen, CommandPalette)


async def test_typing_ranks_with_the_index_and_enter_jumps(tree) -> None:
    app = JumpApp(tree(FILES))
    async with app.run_test(size=(100, 34)) as pilot:
        await open_palette(pilot)
        assert app.screen.query_one(Input).placeholder == PLACEHOLDER
        await pilot.press(*"gateway retr")
        await settle(pilot)
        shown = listed(app)
        assert shown[0][0] == "Gateway retries need a budget"
        assert shown[0][1] == f"Short-term  ·  {ST}/2026-06-10-gateway-retries.md"
        await pilot.press("enter")
        await settle(pilot)
        assert app.jumped == [f"{ST}/2026-06-10-gateway-retries.md"]
        assert not isinstance(app.screen, CommandPalette)


async def test_field_filters_work_in_the_palette(tree) -> None:
    app = JumpApp(tree(FILES))
    async with app.run_test(size=(100, 34)) as pilot:
        await open_palette(pilot)
        await type_query(pilot, "kind:long gateway")
        assert [title for title, _ in listed(app)] == ["Gateway design"]


async def test_down_then_enter_jumps_to_the_second_hit(tree) -> None:
    app = JumpApp(tree(FILES))
    async with app.run_test(size=(100, 34)) as pilot:
        await open_palette(pilot)
        await type_query(pilot, "retries")
        second = listed(app)[1]
        await pilot.press("down", "enter")
        await settle(pilot)
        assert len(app.jumped) == 1 and app.jumped[0] in second[1]


async def test_discovery_lists_critical_first_then_newest_short_term(tree) -> None:
    app = JumpApp(tree(FILES))
    async with app.run_test(size=(100, 34)) as pilot:
        await open_palette(pilot)
        titles = [title for title, _ in listed(app)]
        assert titles == [
            "Always run the tests",
            "[bold]oops[/] and [/]",
            "Odd file name",
            "Billing export runs nightly",
            "Gateway retries need a budget",
            "An old note about retries",
        ]
        assert listed(app)[0][1] == f"Long-term  ·  critical  ·  {LT}/always-test.md"


async def test_markup_in_titles_and_paths_shows_literally(tree) -> None:
    app = JumpApp(tree(FILES))
    async with app.run_test(size=(100, 34)) as pilot:
        await open_palette(pilot)
        await type_query(pilot, "oops")
        commands = app.screen.query_one(CommandList)
        assert commands.option_count == 1
        prompt = commands.get_option_at_index(0).prompt.plain
        assert prompt.splitlines()[0] == "[bold]oops[/] and [/]"
        await type_query(pilot, "odd")
        prompt = commands.get_option_at_index(0).prompt.plain
        assert prompt.splitlines()[1] == f"Short-term  ·  {ST}/2026-06-13-[red]odd[/].md"


async def test_matched_characters_are_highlighted(tree) -> None:
    app = JumpApp(tree(FILES))
    async with app.run_test(size=(100, 34)):
        provider = JumpProvider(app.screen)
        hits = [hit async for hit in provider.search("gatway budget")]
        first = hits[0]
        assert first.text == "Gateway retries need a budget"
        assert isinstance(first.match_display, Content)
        spans = [(s.start, s.end) for s in first.match_display.spans]
        title = first.text
        highlighted = "".join(title[start:end] for start, end in spans)
        assert "budget" in highlighted and "at" in highlighted
        assert all(span.style for span in first.match_display.spans)
        assert 0 < first.score <= 1


async def test_a_bad_query_shows_a_hint_and_never_jumps(tree) -> None:
    app = JumpApp(tree(FILES))
    async with app.run_test(size=(100, 34)) as pilot:
        await open_palette(pilot)
        await type_query(pilot, "importance:")
        shown = listed(app)
        assert len(shown) == 1 and "needs a value" in shown[0][0]
        await pilot.press("enter")
        await settle(pilot)
        assert app.jumped == []


async def test_before_the_index_exists_the_palette_says_so(tree) -> None:
    app = JumpApp(tree(FILES), indexed=False)
    async with app.run_test(size=(100, 34)) as pilot:
        await open_palette(pilot)
        await type_query(pilot, "gateway")
        assert [title for title, _ in listed(app)] == ["Still reading the tree…"]


async def test_a_memory_written_after_opening_is_found(tree) -> None:
    store = tree(FILES)
    app = JumpApp(store)
    async with app.run_test(size=(100, 34)) as pilot:
        await open_palette(pilot)
        created = store.create(f"{ST}/2026-06-15-zebra.md", {"date": TODAY}, "# Zebra\n")
        app.search_index.updated(created)
        await type_query(pilot, "zebra")
        assert listed(app)[0] == ("Zebra", f"Short-term  ·  {created.path}")


async def test_opening_twice_stacks_one_palette(tree) -> None:
    app = JumpApp(tree(FILES))
    async with app.run_test(size=(100, 34)) as pilot:
        await open_palette(pilot)
        open_jump_palette(app)
        await settle(pilot)
        assert sum(isinstance(s, CommandPalette) for s in app.screen_stack) == 1
