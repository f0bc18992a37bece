"""Players at a table, as the bot's users: they read the table message and click its buttons.

``Players`` drives one channel's table through the fake Discord: slash commands, the action buttons of the table
message (whose turn it is comes from ``bot.tables`` and is checked against the embed), Stand pat and the draw
picker (Draw…, a tap on each card to throw, then Throw k; in Assassin, whether the twos go face up), the bet menu
of pot and no limit (Raise…, then a size or Other amount… and its modal), All in and its confirmation, stud's
Bring in, and the dealer's choice menu and its Deal button. Moves are written as the engine's actions (``cc``,
``f``, ``cbr 40``, ``pb``, ``sd 7s8h``, ``sdu 2c``, ``sd``) and turned into the clicks a person would make, so a
test can decide a hand with the engine first (seeds chosen by simulation, see :func:`simulate`) and then play
exactly that hand through Discord.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot.poker import Card, Hand, Legal, format_cards, get_game, parse_cards
from bot.tables import MAX_SEED, TableSettings

from .fakediscord import (
    JSON,
    TEXT_INPUT,
    FakeDiscord,
    InteractionRecord,
    StoredMessage,
    walk_components,
)

if TYPE_CHECKING:
    from bot.tables import Table
    from cogs.app import PokerBot

    from .conftest_bot import PokerBotStarter

# A hand's message once the hand is over: its showdown (a pot won or carried), later its one-line summary
# ("Five Card Draw · #3 · 🏆 ..."). A flop game's showdown has its board first.
SHOWDOWN = re.compile(r"^(?:Board: [^\n]*\n)?(?:🏆|🔁 (?:The|Main|Side)|[^\n·]+ · #\d+ · )")
PROMPT = re.compile(r"^\*\*<@(\d+)>: ", re.MULTILINE)
BET_SIZE = re.compile(r"(?:Raise to|Bet|Complete to) (?P<to>[\d,]+) \(.+\)")  # a size of the bet menu

Policy = Callable[[Hand, Legal], str]


# ------------------------------------------------------------------ policies (engine actions)


def discard_worst(hand: Hand, legal: Legal, count: int = 2) -> str:
    """Throw ``count`` real cards (at least one): the highest for lowball, the lowest unpaired ones for high."""
    cards = list(legal.hand)
    count = max(1, min(count, legal.max_discards, len(cards)))
    if hand.game.is_lowball:
        low_ace = hand.game.ranking != "deuce-to-seven"

        def badness(c: Card) -> int:
            rank = 1 if low_ace and c.rank == 14 else c.rank
            return rank + (20 if sum(x.rank == c.rank for x in cards) > 1 else 0)

        worst = sorted(cards, key=badness, reverse=True)[:count]
    else:
        worst = sorted(cards, key=lambda c: (sum(x.rank == c.rank for x in cards) > 1, c.rank))[:count]
    return "sd " + format_cards(worst)


def calling_station(hand: Hand, legal: Legal) -> str:
    """Check or call every bet (in stud, post the bring-in); throw two cards at every draw (twos face up in
    Assassin)."""
    if legal.can_bring_in:
        return "pb"
    if legal.phase == "drawing":
        if legal.face_up_twos:
            return "sdu " + format_cards(legal.face_up_twos)
        return discard_worst(hand, legal)
    return "cc"


def standing_pat(hand: Hand, legal: Legal) -> str:
    """Check or call everything (in stud, post the bring-in), never draw."""
    if legal.can_bring_in:
        return "pb"
    return "sd" if legal.phase == "drawing" else "cc"


def bettor(hand: Hand, legal: Legal) -> str:
    """Bet when checked to (pot and no limit: an amount typed in the modal, above the minimum; in stud, complete
    rather than bring in), call otherwise; throw two cards at every draw."""
    if legal.phase == "drawing":
        return calling_station(hand, legal)
    if (legal.can_check or legal.can_bring_in) and legal.can_raise:
        if hand.stakes.structure != "fixed-limit" and legal.min_raise_to + 1 < legal.max_raise_to:
            return f"cbr {legal.min_raise_to + 1}"
        return f"cbr {legal.min_raise_to}"
    return "cc"


def hand_seeds(seed: int, count: int) -> list[int]:
    """The seeds the table gives its first ``count`` hands when the bot runs with ``random.Random(seed)``."""
    rng = random.Random(seed)
    return [rng.randrange(MAX_SEED) for _ in range(count)]


def simulate(settings: TableSettings, game: str, stacks: Sequence[int], seed: int, policy: Policy,
             carried_in: int = 0, structure: str | None = None) -> Hand:
    """Play a hand with the engine as the table would deal it (engine seat 0 left of the button)."""
    g = get_game(game)
    hand = Hand(g, settings.stakes_for(g, structure), list(stacks), seed=seed, carried_in=carried_in,  # type: ignore[arg-type]
                **settings.hand_options(g))
    while not hand.is_complete:
        hand.act(policy(hand, hand.legal()))
    return hand


def find_seed(predicate: Callable[[int], bool], *, limit: int = 5000) -> int:
    """The first bot seed (``random.Random(k)``) for which ``predicate(k)`` holds."""
    for k in range(limit):
        if predicate(k):
            return k
    raise AssertionError(f"no seed below {limit} fits")


# ------------------------------------------------------------------ the clock


class FastClockFor:
    """Stands in for a table's settings (``monkeypatch.setattr(table, "settings", FastClockFor(...))``): the clock
    is ``seconds`` when one of ``acting`` is to act, or one of ``choosing`` is to choose the dealer's choice game;
    else 60 s, so the test's own clicks never race it. (The ``clock`` option's minimum is 10 s.)"""

    def __init__(self, table: Table, seconds: float, *, acting: Collection[int] = (),
                 choosing: Collection[int] = ()) -> None:
        self._settings, self._table, self._seconds = table.settings, table, seconds
        self._acting, self._choosing = set(acting), set(choosing)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._settings, name)

    @property
    def clock(self) -> float:
        table = self._table
        if table.live is None:
            return self._seconds if table.chooser() in self._choosing else 60
        return self._seconds if table.actor() in self._acting else 60


def carrying(message: StoredMessage, component: dict[str, Any]) -> StoredMessage:
    """The message as a lying client would describe it: with a component it does not have. (discord.py ignores
    a click on a component that the interaction's message does not carry, so a forgery that reaches the bot's
    code forges the message too.)"""
    forged = message.snapshot()
    forged.components = [*forged.components[:4], {"type": 1, "components": [component]}]
    return forged


# ------------------------------------------------------------------ the players


@dataclass
class Turn:
    """Whose turn it is at the table message, and what he may do."""

    name: str
    user_id: int
    legal: Legal
    hand_id: int
    number: int
    seq: int
    message: StoredMessage


class Players:
    """The users of one channel's table."""

    def __init__(self, fake: FakeDiscord, poker: PokerBotStarter, channel: str = "poker") -> None:
        self.fake = fake
        self.starter = poker
        self.channel = channel
        self.channel_id = fake.channel(channel).id

    # ------------------------------------------------------------------ reading

    @property
    def bot(self) -> PokerBot:
        assert self.starter.bot is not None, "no PokerBot is running"
        return self.starter.bot

    @property
    def table(self) -> Table:
        table = self.bot.tables.get(self.channel_id)
        assert table is not None, f"no table in #{self.channel}"
        return table

    def name(self, user_id: int) -> str:
        return self.fake.user(user_id).name

    def uid(self, name: str) -> int:
        return self.fake.user(name).id

    def message(self) -> StoredMessage:
        """The table message as it is now."""
        return self.fake.message(self.table.message_id)

    def field(self, name: str, message: StoredMessage | None = None) -> str | None:
        """The value of the table embed's field ``name``."""
        embeds = (message or self.message()).embeds
        for fld in embeds[0].get("fields", []) if embeds else []:
            if fld.get("name", "").startswith(name):
                return str(fld.get("value"))
        return None

    def description(self, message: StoredMessage | None = None) -> str:
        """The table embed's text (its description), as it is now."""
        embeds = (message or self.message()).embeds
        return str(embeds[0].get("description") or "") if embeds else ""

    def section(self, name: str, message: StoredMessage | None = None) -> str | None:
        """The lines under the table embed's bold heading that starts with ``name`` (up to a blank line)."""
        lines = self.description(message).splitlines()
        for i, line in enumerate(lines):
            if line.startswith(f"**{name}") and line.endswith("**"):
                body = []
                for after in lines[i + 1:]:
                    if not after.strip():
                        break
                    body.append(after)
                return "\n".join(body)
        return None

    def showdowns(self) -> list[StoredMessage]:
        """The messages of the hands that are over (their showdown, or later their summary), oldest first."""
        return [m for m in self.fake.channel_messages(self.channel)
                if m.embeds and SHOWDOWN.search(str(m.embeds[0].get("description") or ""))]

    def showdown(self, number: int) -> str:
        """The showdown of hand ``number`` as its message showed it when the hand ended (before its summary)."""
        for message in self.fake.channel_messages(self.channel):
            for state in message.history:
                for embed in state["embeds"]:
                    title, text = str(embed.get("title") or ""), str(embed.get("description") or "")
                    if title.endswith(f"· #{number}") and SHOWDOWN.search(text):
                        return text
        raise AssertionError(f"no showdown of hand #{number} was shown")

    def cards(self, cards: Sequence[Card]) -> str:
        """Cards as the bot draws them (its card emojis)."""
        return " ".join(self.bot.card_emojis.card(c) for c in cards)

    def stacks(self) -> dict[str, int]:
        return {self.name(s.user_id): s.stack for s in self.table.record.seats}

    # ------------------------------------------------------------------ commands

    async def poker(self, user: str, sub: str, **options: Any) -> InteractionRecord:
        """``/poker sub`` by ``user`` in the table's channel (``sub`` may name a group: ``"table pause"``); the
        answer."""
        group, _, leaf = sub.rpartition(" ")
        return await self.fake.reply_to(await self.fake.slash(user, "poker", subcommand=leaf, group=group or None,
                                                              options=options, channel=self.channel))

    async def chips(self, user: str, sub: str, group: str | None = None, **options: Any) -> InteractionRecord:
        return await self.fake.reply_to(await self.fake.slash(user, "chips", subcommand=sub, group=group,
                                                              options=options, channel=self.channel))

    async def open_table(self, host: str, players: Sequence[str], *, game: str = "five-card-draw",
                         small_blind: int = 5, big_blind: int = 10, buy_ins: Mapping[str, int] | None = None,
                         start: bool = True, **options: Any) -> Table:
        """/poker create by ``host``, /poker join by each player (in seat order), /poker table start."""
        created = await self.poker(host, "create", game=game, small_blind=small_blind, big_blind=big_blind,
                                   **options)
        assert created.content.startswith("Table open"), created.content
        for name in players:
            buy_in = (buy_ins or {}).get(name)
            joined = await self.poker(name, "join", **({"buy_in": buy_in} if buy_in is not None else {}))
            assert joined.ephemeral and joined.content.startswith("You sit in seat"), joined.content
        if start:
            started = await self.poker(host, "table start")
            assert started.content == "Shuffle up and deal!", started.content
        return self.table

    # ------------------------------------------------------------------ turns

    def _turn_now(self, number: int | None) -> Turn | None:
        bot = self.starter.bot
        table = bot.tables.get(self.channel_id) if bot is not None else None
        if table is None or table.live is None:
            return None
        live = table.live
        if number is not None and live.record.number != number:
            return None
        actor, legal = table.actor(), table.legal()
        message_id = table.message_id
        if actor is None or legal is None or message_id is None or message_id not in self.fake.messages:
            return None
        message = self.fake.messages[message_id]
        prefix = f"pk:turn:{table.id}:{live.record.id}:{live.seq}:"
        kinds = {c[len(prefix):] for c in message.custom_ids() if c.startswith(prefix)}
        wanted = "draw" if legal.phase == "drawing" else "bringin" if legal.can_bring_in else "cc"
        if wanted not in kinds:
            return None  # the message does not show this moment yet
        prompt = PROMPT.search(self.description(message))
        if prompt is None or int(prompt[1]) != actor:
            return None
        return Turn(self.name(actor), actor, legal, live.record.id, live.record.number, live.seq, message)

    async def turn(self, number: int | None = None, timeout: float = 5.0) -> Turn:
        """Wait until the table message shows a player to act (in hand ``number``)."""
        return await self.fake.wait_for(lambda: self._turn_now(number), timeout, what="a player to act")

    def seat_button(self, kind: str) -> str:
        """The custom_id of a seat button (My hand, Join, Sit out / in, Rebuy…, Leave) of the table message."""
        return f"pk:seat:{self.table.id}:{kind}"

    async def click_seat(self, user: str, kind: str) -> InteractionRecord:
        """``user`` presses one of the table message's seat buttons."""
        return await self.fake.reply_to(await self.fake.click(user, self.message(), self.seat_button(kind)))

    def button_id(self, turn: Turn, kind: str, message: StoredMessage | None = None) -> str:
        """The custom_id of the ``kind`` button of ``turn``, checked to be on ``message`` (default: the turn's)."""
        custom_id = f"pk:turn:{self.table.id}:{turn.hand_id}:{turn.seq}:{kind}"
        shown = message or turn.message
        assert shown.component(custom_id) is not None, f"no {kind} button: {shown.custom_ids()}"
        return custom_id

    async def click(self, kind: str, user: str | None = None, turn: Turn | None = None) -> InteractionRecord:
        """Click the table message's ``kind`` button (default: as the player to act)."""
        turn = turn or await self.turn()
        return await self.fake.reply_to(
            await self.fake.click(user or turn.name, turn.message, self.button_id(turn, kind)))

    async def act(self, action: str, turn: Turn | None = None) -> InteractionRecord:
        """Make the engine action ``action`` for the player to act: a button, the amount modal or the draw form."""
        turn = turn or await self.turn()
        legal = turn.legal
        verb, _, arg = action.partition(" ")
        if verb == "cc":
            return await self.click("cc", turn=turn)
        if verb == "pb":  # stud's bring-in: its own button (a completion is a cbr: the Complete to button)
            return await self.click("bringin", turn=turn)
        if verb == "f":
            return await self.click("fold", turn=turn)
        if verb == "cbr":
            amount = int(arg)
            shown = turn.message.custom_ids()
            prefix = f"pk:turn:{self.table.id}:{turn.hand_id}:{turn.seq}:"
            if amount == legal.all_in_to and f"{prefix}allin" in shown:
                return await self.all_in(turn)
            for kind, value in (("min", legal.min_raise_to), ("max", legal.max_raise_to)):  # fixed limit's buttons
                if value == amount and f"{prefix}{kind}" in shown:
                    return await self.click(kind, turn=turn)
            return await self.bet_from_menu(amount, turn)
        if verb in ("sd", "sdu"):
            return await self.draw(parse_cards(arg) if arg else [], face_up=verb == "sdu", turn=turn)
        raise ValueError(f"cannot play {action!r}")

    async def open_bet_menu(self, turn: Turn | None = None) -> InteractionRecord:
        """Click Raise… (Bet…, Complete…) in pot or no limit: the bet menu, a message only the player sees."""
        turn = turn or await self.turn()
        opened = await self.click("raise", turn=turn)
        assert opened.ephemeral and opened.message is not None, f"Raise… opened no menu: {opened.content!r}"
        return opened

    @staticmethod
    def bet_sizes(menu: StoredMessage) -> dict[int, str]:
        """The bet menu's sizes, {the total each bets to: its custom_id}, read from their labels ("Raise to 1,000
        (all in)")."""
        sizes = {}
        for component in menu.buttons():
            size = BET_SIZE.fullmatch(str(component.get("label") or ""))
            if size is not None:
                sizes[int(size["to"].replace(",", ""))] = str(component["custom_id"])
        return sizes

    async def bet_from_menu(self, amount: int, turn: Turn | None = None) -> InteractionRecord:
        """Bet or raise to ``amount`` in pot or no limit: Raise…, then its size in the menu (two taps), or Other
        amount… and the amount typed when the menu has no such size. The answer to the last tap."""
        turn = turn or await self.turn()
        menu = (await self.open_bet_menu(turn)).message
        assert menu is not None
        custom_id = self.bet_sizes(menu).get(amount)
        if custom_id is None:
            return await self.bet_amount(str(amount), turn=turn, menu=menu)
        return await self.fake.reply_to(await self.fake.click(turn.name, menu, custom_id))

    async def bet_amount(self, text: str, turn: Turn | None = None, *, force: bool = False,
                         menu: StoredMessage | None = None) -> InteractionRecord:
        """Click "Raise…", then "Other amount…" in its menu (``menu``: the menu already open) and type ``text`` in
        the modal; the answer to the submission."""
        turn = turn or await self.turn()
        if menu is None:
            menu = (await self.open_bet_menu(turn)).message
            assert menu is not None
        other = f"pk:turn:{self.table.id}:{turn.hand_id}:{turn.seq}:amount"
        assert menu.component(other) is not None, f"no Other amount… in the menu: {menu.custom_ids()}"
        opened = await self.fake.reply_to(await self.fake.click(turn.name, menu, other))
        assert opened.modal is not None, f"Other amount… opened no modal: {opened.content!r}"
        inputs = [c for c in walk_components(opened.modal.get("components", [])) if c.get("type") == TEXT_INPUT]
        assert len(inputs) == 1, inputs
        submitted = await self.fake.submit_modal(turn.name, str(opened.modal["custom_id"]),
                                                 {str(inputs[0]["custom_id"]): text}, force=force)
        return await self.fake.reply_to(submitted)

    async def all_in(self, turn: Turn | None = None) -> InteractionRecord:
        """All in: the table's All in button, then Yes on the confirmation only the player sees."""
        turn = turn or await self.turn()
        asked = await self.click("allin", turn=turn)
        assert asked.ephemeral and asked.message is not None, asked.content
        sure = f"pk:turn:{self.table.id}:{turn.hand_id}:{turn.seq}:allinok"
        return await self.fake.reply_to(await self.fake.click(turn.name, asked.message, sure))

    async def open_draw(self, turn: Turn | None = None, user: str | None = None) -> InteractionRecord:
        """Click Draw…: the draw picker (an ephemeral message of card buttons) shown."""
        turn = turn or await self.turn()
        reply = await self.click("draw", user=user, turn=turn)
        assert reply.ephemeral and reply.message is not None, f"Draw… opened no picker: {reply.content!r}"
        return reply

    def picker_buttons(self, picker: StoredMessage) -> tuple[dict[int, str], dict[str, str]]:
        """A picker's card buttons {card index: custom_id} and its confirmations {label: custom_id}."""
        toggles, confirms = {}, {}
        for component in picker.buttons():
            custom_id = str(component.get("custom_id") or "")
            if custom_id.startswith("pk:card:"):
                toggles[int(custom_id.rsplit(":", 1)[1])] = custom_id
            elif custom_id.startswith("pk:throw:"):
                confirms[str(component.get("label") or "")] = custom_id
        return toggles, confirms

    async def draw(self, cards: Sequence[Card], *, face_up: bool = False, turn: Turn | None = None
                   ) -> InteractionRecord:
        """Stand pat with the table's button when ``cards`` is empty; else click Draw…, tap each card to throw in
        the picker, then its Throw button (twos face up if asked): k + 2 taps. The answer to the last tap."""
        turn = turn or await self.turn()
        if not cards:
            return await self.click("pat", turn=turn)
        opened = await self.open_draw(turn)
        picker = opened.message
        assert picker is not None
        hand = list(turn.legal.hand)
        for card in cards:
            toggles, _ = self.picker_buttons(picker)
            tapped = await self.fake.reply_to(await self.fake.click(turn.name, picker, toggles[hand.index(card)]))
            assert tapped.response_type == 7, tapped.content  # the picker shown again, with the card marked
            picker = self.fake.message(picker.id)
        _, confirms = self.picker_buttons(picker)
        label = next(k for k in confirms if ("face up" in k) == face_up or len(confirms) == 1)
        return await self.fake.reply_to(await self.fake.click(turn.name, picker, confirms[label]))

    def choice_button(self) -> tuple[StoredMessage, JSON] | None:
        """When the table message waits for the dealer's choice on a page of its own (its clock running): the
        message and its Pick the game… button. (The finished hand's page before it has the button too:
        ``finished_choice_button``.)"""
        found = self.finished_choice_button()
        return found if found is not None and " picks the next game**" in found[0].text() else None

    def finished_choice_button(self) -> tuple[StoredMessage, JSON] | None:
        """The table message's Pick the game… button between hands, on whichever page shows it: the finished
        hand's ("Next: @x picks the game.") or the dealer's choice's own."""
        table = self.table
        if table.live is not None or table.message_id is None or table.message_id not in self.fake.messages:
            return None
        message = self.fake.messages[table.message_id]
        button = next((c for c in message.buttons() if str(c.get("custom_id", "")).startswith("pk:choose:")), None)
        return (message, button) if button is not None else None

    @staticmethod
    def menu_parts(menu: StoredMessage) -> dict[str, JSON]:
        """The chooser's menu by kind: ``game`` the games, ``structure`` the structures, ``deal`` the Deal button."""
        return {str(c["custom_id"]).split(":")[1]: c for c in menu.all_components()
                if str(c.get("custom_id", "")).startswith(("pk:game:", "pk:structure:", "pk:deal:"))}

    async def open_menu(self, who: str, *, timeout: float = 5.0) -> tuple[StoredMessage, dict[str, JSON]]:
        """Dealer's choice: ``who`` (the chooser) taps Pick the game… on the table message (answered with the
        table); his menu (a private message following that answer) and its parts (``menu_parts``)."""
        message, button = await self.fake.wait_for(self.choice_button, timeout, what="the dealer's choice button")
        opened = await self.fake.reply_to(await self.fake.click(who, message, str(button["custom_id"])), followups=1)
        assert opened.response_type in (6, 7), opened.content  # the table, answered
        menu = opened.followups[-1]
        assert menu.ephemeral and "pk:game:" in " ".join(menu.custom_ids()), f"no menu: {menu.content!r}"
        return menu, self.menu_parts(menu)

    async def choose(self, who: str, game: str, structure: str | None = None, *, timeout: float = 5.0) -> None:
        """Dealer's choice: ``who`` opens his menu, picks ``game`` (and ``structure``), then presses Deal."""
        menu = await self.pick(who, game, structure, timeout=timeout)
        deal = self.menu_parts(self.fake.message(menu.id))["deal"]
        assert not deal.get("disabled") and str(deal.get("label")) == f"Deal {get_game(game).name}"[:80]
        dealt = await self.fake.reply_to(await self.fake.click(who, menu, str(deal["custom_id"])))
        assert dealt.response_type in (6, 7), dealt.content
        assert self.table.live is not None and self.table.live.hand.game.id == game

    async def pick(self, who: str, game: str, structure: str | None = None, *, timeout: float = 5.0
                   ) -> StoredMessage:
        """Dealer's choice: ``who`` opens his menu and picks ``game`` (and ``structure``), not dealt yet; his menu."""
        menu, parts = await self.open_menu(who, timeout=timeout)
        if structure is not None:
            picked = await self.fake.reply_to(await self.fake.select(who, menu, str(parts["structure"]["custom_id"]),
                                                                     [structure]))
            assert picked.response_type == 7, picked.content
            parts = self.menu_parts(self.fake.message(menu.id))
        picked = await self.fake.reply_to(await self.fake.select(who, menu, str(parts["game"]["custom_id"]), [game]))
        assert picked.response_type == 7 and self.table.live is None, picked.content  # shown, not dealt yet
        return menu

    async def play(self, policy: Policy = calling_station, *, number: int | None = None,
                   until: Callable[[Turn], bool] | None = None, idle: Collection[str] = (),
                   timeout: float = 10.0) -> int:
        """Play the hand being dealt (``number``: wait for that one) with ``policy`` until it ends (or ``until``
        says stop at a turn); the players in ``idle`` never act (their clock runs out). Returns the hand
        number, once its message shows the showdown."""
        first = await self.turn(number, timeout)
        number, hand_id = first.number, first.hand_id
        shown = len(self.showdowns())
        turn: Turn | None = first
        while turn is not None:
            if until is not None and until(turn):
                return number
            hand = self.table.hand
            assert hand is not None
            if turn.name not in idle:
                await self.act(policy(hand, turn.legal), turn=turn)
            seq = turn.seq

            def moved_on(seq: int = seq) -> Turn | bool | None:
                after = self._next_turn(hand_id)
                return after if not isinstance(after, Turn) or after.seq != seq else None

            after = await self.fake.wait_for(moved_on, timeout, what="the next turn")
            turn = after if isinstance(after, Turn) else None
        await self.fake.wait_for(lambda: len(self.showdowns()) > shown, timeout, what="the showdown shown")
        return number

    async def next_turn(self, turn: Turn, timeout: float = 10.0) -> Turn | None:
        """The turn after ``turn`` in its hand once the table message shows it, or None once the hand is over."""
        def moved_on() -> Turn | bool | None:
            after = self._next_turn(turn.hand_id)
            return after if not isinstance(after, Turn) or after.seq != turn.seq else None

        after = await self.fake.wait_for(moved_on, timeout, what="the next turn")
        return after if isinstance(after, Turn) else None

    async def _next_turn_or_end(self, number: int, timeout: float = 10.0) -> Turn | None:
        """The next turn of hand ``number`` once the table message shows it, or None once the hand is over."""
        def ready() -> Turn | bool | None:
            live = self.table.live
            if live is None or live.record.number > number:
                return True
            return self._turn_now(number)

        found = await self.fake.wait_for(ready, timeout, what=f"a turn of hand #{number} or its end")
        return found if isinstance(found, Turn) else None

    def _next_turn(self, hand_id: int) -> Turn | bool | None:
        """The next turn of hand ``hand_id``, False-y while it is being shown, ``True`` once the hand is over."""
        table = self.table
        if table.live is None or table.live.record.id != hand_id:
            return True
        return self._turn_now(None)

    async def hand_over(self, number: int, timeout: float = 5.0) -> None:
        """Wait until hand ``number`` is over and its showdown message posted (when every hand of the table
        so far ended with one: the channel then shows ``number`` of them)."""
        def over() -> bool:
            live = self.table.live
            return (live is None or live.record.number > number) and len(self.showdowns()) >= number
        await self.fake.wait_for(over, timeout, what=f"hand #{number} to end")


def channel_texts(fake: FakeDiscord, channel: str = "poker") -> list[str]:
    """The text of every version of every message of a channel (each hand has a message of its own)."""
    return [text for message in fake.channel_messages(channel) for text in versions_text(fake, message.id)]


def versions_text(fake: FakeDiscord, message_id: int) -> list[str]:
    """The text of every version of a message, oldest first (embed titles, descriptions and fields)."""
    texts = []
    for state in fake.message(message_id).history:
        parts = [state["content"]]
        for embed in state["embeds"]:
            parts += [embed.get("title", ""), embed.get("description", "")]
            parts += [f"{f['name']}\n{f['value']}" for f in embed.get("fields", [])]
        texts.append("\n".join(p for p in parts if p))
    return texts


__all__ = [
    "FastClockFor",
    "Players",
    "Policy",
    "Turn",
    "bettor",
    "calling_station",
    "channel_texts",
    "discard_worst",
    "find_seed",
    "hand_seeds",
    "simulate",
    "standing_pat",
    "versions_text",
]
