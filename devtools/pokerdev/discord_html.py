"""Discord messages as a phone shows them, in HTML: the mobile dark theme, close enough that a player recognises it.

The input is what the fake Discord stores (``StoredMessage.payload()``): content, embeds, components (action rows of
buttons and selects, and the Components V2 layout: containers, sections, text displays, separators, galleries),
attachments, flags (ephemeral, loading) and the interaction that a reply answers. :func:`page` lays out messages
in a phone's frame (the channel header, the messages from the bottom up, the composer) or cropped to their height;
:func:`modal` and :func:`select_sheet` draw what opens over the channel (a form, the options of a select).

Everything a message says is escaped: the page runs no script and loads nothing (images are inlined as data URLs).
What a client knows that the message does not (member names, emoji images, attachment bytes, the command a reply
answers, the time) comes in :class:`Look`.

Deliberate simplifications: Discord's markdown is approximated (emphasis does not span lines; no nested lists);
inline embed fields are stacked one under the other, as the mobile app does; unicode emoji are drawn with the
system's emoji font rather than Twemoji, each in its Unicode default presentation (``▶`` and ``♥`` as text,
``▶️`` and ``🔘`` as emoji).
"""

from __future__ import annotations

import base64
import html
import re
import time
import zlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = ["PHONE_HEIGHT", "PHONE_WIDTH", "Look", "markdown", "message", "modal", "page", "relative", "select_sheet"]

PHONE_WIDTH, PHONE_HEIGHT = 390, 844  # CSS px of a current phone (iPhone 12 to 15)
EPHEMERAL, LOADING, COMPONENTS_V2 = 1 << 6, 1 << 7, 1 << 15
ROW, BUTTON, STRING_SELECT, TEXT_INPUT = 1, 2, 3, 4
ENTITY_SELECTS = {5: "users", 6: "roles", 7: "members", 8: "channels"}
SECTION, TEXT, THUMBNAIL, GALLERY, FILE, SEPARATOR, CONTAINER, LABEL = 9, 10, 11, 12, 13, 14, 17, 18
BUTTON_CLASS = {1: "primary", 2: "secondary", 3: "success", 4: "danger", 5: "link", 6: "premium"}
GROUP_SECONDS = 7 * 60  # a sender's messages within this time of each other share one header
EVENING = 1_749_243_600  # 2025-06-06 21:00 UTC, a Friday: where the pictures' clock starts

Payload = Mapping[str, Any]


@dataclass(frozen=True)
class Look:
    """What the reader's client knows besides the messages."""

    names: Mapping[int, str] = field(default_factory=dict)  # user, role and channel ids -> names
    viewer: int | None = None  # whose phone: his mentions are highlighted
    now: float = 0.0  # unix time of the picture, for relative timestamps (<t:..:R>)
    start: float = 0.0  # unix time shown as 21:00 on the pictures' clock (0: show times as they are)
    emojis: Mapping[int, bytes] = field(default_factory=dict)  # custom emoji id -> PNG
    files: Mapping[int, bytes] = field(default_factory=dict)  # attachment id -> its bytes
    commands: Mapping[int, str] = field(default_factory=dict)  # interaction id -> "/poker join"
    bot_ids: frozenset[int] = frozenset()  # authors shown with the APP tag (besides those flagged bot)

    def name(self, snowflake: str | int) -> str:
        return self.names.get(int(snowflake), str(snowflake))

    def shown_time(self, unix: float) -> time.struct_time:
        """The pictures' clock: ``start`` is 21:00 on a Friday, so that pictures do not depend on the day."""
        return time.gmtime(EVENING + unix - self.start) if self.start else time.localtime(unix)


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _data_url(data: bytes, mime: str = "image/png") -> str:
    return f"data:{mime};base64,{base64.b64encode(data).decode()}"


def _unix(iso: str) -> float:
    """An ISO timestamp as Discord sends them (``2025-06-06T21:00:00.000000+00:00``) in unix seconds."""
    from datetime import datetime

    try:
        return datetime.fromisoformat(iso.replace("Z", "+00:00")).timestamp()
    except ValueError:
        return 0.0


# ---------------------------------------------------------------------------------------------------- time


def relative(seconds: float) -> str:
    """A relative timestamp as Discord writes it: ``in 45 seconds``, ``2 minutes ago``."""
    future, span = seconds >= 0, int(abs(seconds))  # whole seconds, as a countdown shows them
    for size, unit in ((86400 * 365, "year"), (86400 * 30, "month"), (86400, "day"), (3600, "hour"),
                       (60, "minute"), (1, "second")):
        if span >= size or unit == "second":
            count = span // size
            words = f"{count} {unit}{'' if count == 1 else 's'}"
            return f"in {words}" if future else f"{words} ago"
    raise AssertionError("unreachable")


def _timestamp(unix: int, style: str, look: Look) -> str:
    if style == "R":
        return relative(unix - look.now)
    shown = look.shown_time(unix)
    day = time.strftime("%-d %B %Y", shown)
    return {
        "t": time.strftime("%H:%M", shown),
        "T": time.strftime("%H:%M:%S", shown),
        "d": time.strftime("%d/%m/%Y", shown),
        "D": day,
        "F": time.strftime("%A, ", shown) + day + time.strftime(" %H:%M", shown),
    }.get(style, day + time.strftime(" %H:%M", shown))


def _clock(unix: float, look: Look) -> str:
    return "Today at " + time.strftime("%H:%M", look.shown_time(unix))


# ---------------------------------------------------------------------------------------------------- markdown

TOKEN = re.compile(
    r"```(?:[A-Za-z0-9_+-]+\n|\n)?(?P<block>.*?)```"
    r"|``(?P<code2>.+?)``|`(?P<code>[^`\n]+)`"
    r"|<@!?(?P<user>\d+)>|<@&(?P<role>\d+)>|<#(?P<channel>\d+)>"
    r"|<(?P<animated>a?):(?P<emoji>\w{2,32}):(?P<emoji_id>\d+)>"
    r"|<t:(?P<ts>-?\d{1,13})(?::(?P<style>[tTdDfFR]))?>"
    r"|<(?P<autolink>https?://[^\s>]+)>"
    r"|\[(?P<label>[^\]\n]+)\]\((?P<href>https?://[^)\s]+)\)"
    r"|(?P<url>https?://[^\s<]+[^\s<.,:;\"')\]])"
    r"|\\(?P<escaped>[^\sA-Za-z0-9])",
    re.S,
)
EMPHASIS = (
    (re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*"), r"<strong>\1</strong>"),
    (re.compile(r"__(?=\S)(.+?)(?<=\S)__"), r"<u>\1</u>"),
    (re.compile(r"\*(?=[^\s*])(.+?)(?<=[^\s*])\*"), r"<em>\1</em>"),
    (re.compile(r"(?<![A-Za-z0-9_])_(?=\S)(.+?)(?<=\S)_(?![A-Za-z0-9_])"), r"<em>\1</em>"),
    (re.compile(r"~~(?=\S)(.+?)(?<=\S)~~"), r"<s>\1</s>"),
    (re.compile(r"\|\|(.+?)\|\|"), r'<span class="spoiler">\1</span>'),
)
# A link to a channel or a message, which Discord shows as a chip ("#poker › 💬") rather than the URL.
JUMP_LINK = re.compile(r"https://(?:ptb\.|canary\.)?discord(?:app)?\.com/channels/(?:\d+|@me)/(?P<channel>\d+)"
                       r"(?:/(?P<message>\d+))?/?")
PLACEHOLDER = re.compile("\x00(\\d+)\x00")
# Codepoints a client draws as emoji (with the variation selector and joiner that compose them); enough to tell
# "only emoji" content, which Discord shows large.
EMOJI_ONLY = re.compile("^(?:[\U0001F000-\U0001FAFF\u2600-\u27BF\u2B00-\u2BFF\u2190-\u21FF\u25A0-\u25FF"
                        "\u2300-\u23FF\uFE0F\u200D\U0001F3FB-\U0001F3FF]|\x00\\d+\x00|\\s)+$")


class _Inline:
    """Discord markdown for one piece of text: tokens (code, mentions, emoji, timestamps, links) are replaced by
    placeholders before the text is escaped and emphasised, then put back as HTML."""

    def __init__(self, look: Look) -> None:
        self.look = look
        self.parts: list[str] = []
        self.emoji_parts: set[int] = set()

    def _keep(self, html_text: str, *, emoji: bool = False) -> str:
        self.parts.append(html_text)
        if emoji:
            self.emoji_parts.add(len(self.parts) - 1)
        return f"\x00{len(self.parts) - 1}\x00"

    def _token(self, m: re.Match[str]) -> str:
        look = self.look
        if m["block"] is not None:
            return self._keep(f'<pre class="codeblock">{_e(m["block"].rstrip(chr(10)))}</pre>')
        if m["code2"] is not None or m["code"] is not None:
            return self._keep(f"<code>{_e((m['code2'] or m['code']).strip() if m['code2'] else m['code'])}</code>")
        if m["user"]:
            return self._keep(f'<span class="mention">@{_e(look.name(m["user"]))}</span>')
        if m["role"]:
            return self._keep(f'<span class="mention">@{_e(look.name(m["role"]))}</span>')
        if m["channel"]:
            return self._keep(f'<span class="mention channel">#{_e(look.name(m["channel"]))}</span>')
        if m["emoji_id"]:
            return self._keep(emoji_html(m["emoji"], int(m["emoji_id"]), look), emoji=True)
        if m["ts"]:
            shown = _timestamp(int(m["ts"]), m["style"] or "f", look)
            return self._keep(f'<span class="timestamp">{_e(shown)}</span>')
        if m["autolink"] or m["url"]:
            url = m["autolink"] or m["url"]
            jump = JUMP_LINK.fullmatch(url)
            if jump and int(jump["channel"]) in look.names:  # a link to a channel or message: Discord's chip
                chip = f"#{_e(look.name(jump['channel']))}" + (" › 💬" if jump["message"] else "")
                return self._keep(f'<span class="mention channel">{chip}</span>')
            return self._keep(f'<span class="link">{_e(url)}</span>')
        if m["label"]:
            return self._keep(f'<span class="link">{self.render(m["label"])}</span>')
        return self._keep(_e(m["escaped"]))

    def tokenize(self, text: str) -> str:
        return TOKEN.sub(self._token, text)

    def finish(self, tokenized: str) -> str:
        """Escape and emphasise text with placeholders, then put the tokens back."""
        out = _e(tokenized)
        for pattern, replacement in EMPHASIS:
            out = pattern.sub(replacement, out)
        return PLACEHOLDER.sub(lambda p: self.parts[int(p[1])], out)

    def render(self, text: str) -> str:
        return self.finish(self.tokenize(text))


def emoji_html(name: str, emoji_id: int | None, look: Look, *, css: str = "emoji") -> str:
    """A custom emoji: its image when the client has it, else ``:name:`` as Discord shows an unknown one."""
    data = look.emojis.get(emoji_id) if emoji_id is not None else None
    if data is None:
        return f'<span class="{css} missing">:{_e(name)}:</span>'
    return f'<img class="{css}" alt=":{_e(name)}:" src="{_data_url(data)}">'


def markdown(text: str, look: Look, *, jumbo: bool = False) -> str:
    """Discord markdown as HTML: block quotes, headers, subtext and lists by line, emphasis and tokens inline.
    ``jumbo``: text made only of emoji is shown large, as in message content."""
    inline = _Inline(look)
    tokenized = inline.tokenize(text)
    big = (jumbo and bool(tokenized.strip()) and EMOJI_ONLY.match(tokenized) is not None
           and all(int(i) in inline.emoji_parts for i in PLACEHOLDER.findall(tokenized)))
    lines: list[str] = []
    quote: list[str] = []
    for line in tokenized.split("\n"):
        block = _block_line(line, inline)
        if line.startswith("> ") or line == ">":
            quote.append(inline.finish(line[2:]) or "&nbsp;")
            continue
        if quote:
            lines.append('<div class="quote">' + "<br>".join(quote) + "</div>")
            quote = []
        lines.append(block)
    if quote:
        lines.append('<div class="quote">' + "<br>".join(quote) + "</div>")
    body = _join_lines(lines)
    return f'<div class="md{" jumbo" if big else ""}">{body}</div>'


def _block_line(line: str, inline: _Inline) -> str:
    for prefix, css in (("### ", "h3"), ("## ", "h2"), ("# ", "h1"), ("-# ", "subtext")):
        if line.startswith(prefix):
            return f'<div class="{css}">{inline.finish(line[len(prefix):])}</div>'
    bullet = re.match(r"^(\s*)[-*] (.*)$", line)
    if bullet:
        depth = 1 + len(bullet[1]) // 2
        return f'<div class="li" style="margin-left:{depth * 16}px">{inline.finish(bullet[2])}</div>'
    return inline.finish(line)


def _join_lines(lines: Sequence[str]) -> str:
    """Lines joined by line breaks, except around block elements (which break lines themselves)."""
    out = ""
    for i, line in enumerate(lines):
        if i and not line.startswith("<div") and not lines[i - 1].startswith("<div"):
            out += "<br>"
        out += line
    return out


# ---------------------------------------------------------------------------------------------------- parts


def _attachment_images(msg: Payload, look: Look) -> dict[str, str]:
    """``attachment://name`` -> data URL, for the attachments whose bytes the client has."""
    out: dict[str, str] = {}
    for attachment in msg.get("attachments") or []:
        data = look.files.get(int(attachment.get("id") or 0))
        if data is not None:
            out[f"attachment://{attachment.get('filename')}"] = _data_url(
                data, str(attachment.get("content_type") or "image/png"))
    return out


def _image_src(url: str, images: Mapping[str, str]) -> str | None:
    return images.get(url) or (url if url.startswith("data:") else None)


def _embed(embed: Payload, look: Look, images: Mapping[str, str]) -> str:
    colour = embed.get("color")
    bar = f"#{int(colour):06x}" if colour is not None else "#1e1f22"
    parts: list[str] = []
    author = embed.get("author") or {}
    if author.get("name"):
        parts.append(f'<div class="embed-author">{_e(author["name"])}</div>')
    if embed.get("title"):
        css = "embed-title link" if embed.get("url") else "embed-title"
        parts.append(f'<div class="{css}">{_Inline(look).render(str(embed["title"]))}</div>')
    if embed.get("description"):
        parts.append(f'<div class="embed-description">{markdown(str(embed["description"]), look)}</div>')
    fields = [
        f'<div class="embed-field"><div class="embed-field-name">{_Inline(look).render(str(f.get("name") or ""))}'
        f'</div><div class="embed-field-value">{markdown(str(f.get("value") or ""), look)}</div></div>'
        for f in embed.get("fields") or []
    ]
    if fields:
        parts.append('<div class="embed-fields">' + "".join(fields) + "</div>")
    image = _image_src(str((embed.get("image") or {}).get("url") or ""), images)
    if image:
        parts.append(f'<img class="embed-image" src="{_e(image)}">')
    footer = embed.get("footer") or {}
    foot = [_e(footer["text"])] if footer.get("text") else []
    if embed.get("timestamp"):
        foot.append(_e(_clock(_unix(str(embed["timestamp"])), look)))
    if foot:
        parts.append(f'<div class="embed-footer">{" • ".join(foot)}</div>')
    thumb = _image_src(str((embed.get("thumbnail") or {}).get("url") or ""), images)
    thumb_html = f'<img class="embed-thumbnail" src="{_e(thumb)}">' if thumb else ""
    return (f'<div class="embed" style="border-left-color:{bar}"><div class="embed-grid">'
            f'<div class="embed-body">{"".join(parts)}</div>{thumb_html}</div></div>')


def _component_emoji(emoji: Payload | None, look: Look) -> str:
    if not emoji:
        return ""
    if emoji.get("id"):
        return emoji_html(str(emoji.get("name") or "emoji"), int(emoji["id"]), look, css="emoji component-emoji")
    return f'<span class="component-emoji">{_e(emoji.get("name") or "")}</span>'


def _button(button: Payload, look: Look) -> str:
    style = int(button.get("style") or 2)
    css = BUTTON_CLASS.get(style, "secondary")
    label = _e(button.get("label") or "")
    icon = _component_emoji(button.get("emoji"), look)
    link = '<span class="link-icon">↗</span>' if style == 5 else ""
    disabled = " disabled" if button.get("disabled") else ""
    return f'<span class="button {css}{disabled}">{icon}{f"<span>{label}</span>" if label else ""}{link}</span>'


def _select(select: Payload, look: Look) -> str:
    kind = int(select.get("type") or STRING_SELECT)
    chosen = [o for o in select.get("options") or [] if o.get("default")]
    if chosen:
        shown = ", ".join(_component_emoji(o.get("emoji"), look) + _e(o.get("label") or "") for o in chosen)
        text = f'<span class="select-value">{shown}</span>'
    else:
        placeholder = select.get("placeholder") or ("Make a selection" if kind == STRING_SELECT
                                                     else f"Select {ENTITY_SELECTS.get(kind, 'items')}")
        text = f'<span class="select-placeholder">{_e(placeholder)}</span>'
    disabled = " disabled" if select.get("disabled") else ""
    return f'<div class="select{disabled}">{text}<span class="chevron">⌄</span></div>'


def _text_input(component: Payload) -> str:
    value = component.get("value") or ""
    text = _e(value) if value else f'<span class="select-placeholder">{_e(component.get("placeholder") or "")}</span>'
    tall = " paragraph" if int(component.get("style") or 1) == 2 else ""
    return f'<div class="text-input{tall}">{text}</div>'


def components(items: Iterable[Payload], look: Look, images: Mapping[str, str]) -> str:
    """Action rows (buttons, selects) and Components V2 layout, as the mobile app stacks them."""
    out: list[str] = []
    for item in items:
        kind = int(item.get("type") or 0)
        if kind == ROW:
            children = list(item.get("components") or [])
            inner = "".join(_button(c, look) if int(c.get("type") or 0) == BUTTON else _single(c, look, images)
                            for c in children)
            out.append(f'<div class="row">{inner}</div>')
        else:
            out.append(_single(item, look, images))
    return "".join(out)


def _single(item: Payload, look: Look, images: Mapping[str, str]) -> str:
    kind = int(item.get("type") or 0)
    if kind == BUTTON:
        return _button(item, look)
    if kind == STRING_SELECT or kind in ENTITY_SELECTS:
        return _select(item, look)
    if kind == TEXT_INPUT:
        return _text_input(item)
    if kind == TEXT:
        return f'<div class="text-display">{markdown(str(item.get("content") or ""), look)}</div>'
    if kind == SECTION:
        texts = components(item.get("components") or [], look, images)
        accessory = item.get("accessory")
        side = _single(accessory, look, images) if isinstance(accessory, Mapping) else ""
        return f'<div class="section"><div class="section-text">{texts}</div><div class="accessory">{side}</div></div>'
    if kind == THUMBNAIL:
        src = _image_src(str((item.get("media") or {}).get("url") or ""), images)
        return f'<img class="thumbnail" src="{_e(src)}">' if src else '<div class="thumbnail missing"></div>'
    if kind == GALLERY:
        pictures = [_image_src(str((m.get("media") or {}).get("url") or ""), images) for m in item.get("items") or []]
        return '<div class="gallery">' + "".join(f'<img src="{_e(p)}">' for p in pictures if p) + "</div>"
    if kind == FILE:
        name = str((item.get("file") or {}).get("url") or "").removeprefix("attachment://")
        return f'<div class="file">📄 <span class="link">{_e(name)}</span></div>'
    if kind == SEPARATOR:
        line = " line" if item.get("divider", True) else ""
        return f'<div class="separator{line} s{int(item.get("spacing") or 1)}"></div>'
    if kind == CONTAINER:
        colour = item.get("accent_color")
        bar = f"border-left:4px solid #{int(colour):06x};" if colour is not None else ""
        inner = components(item.get("components") or [], look, images)
        return f'<div class="container" style="{bar}">{inner}</div>'
    if kind == LABEL:
        return _label(item, look, images)
    return ""


def _label(item: Payload, look: Look, images: Mapping[str, str]) -> str:
    description = item.get("description")
    inner = item.get("component")
    return (f'<div class="label"><div class="label-text">{_e(item.get("label") or "")}</div>'
            + (f'<div class="label-description">{_e(description)}</div>' if description else "")
            + (_single(inner, look, images) if isinstance(inner, Mapping) else "") + "</div>")


def _files(msg: Payload, look: Look, shown: set[str]) -> str:
    out: list[str] = []
    for attachment in msg.get("attachments") or []:
        name = str(attachment.get("filename") or "file")
        if f"attachment://{name}" in shown:
            continue
        data = look.files.get(int(attachment.get("id") or 0))
        mime = str(attachment.get("content_type") or "")
        if data is not None and (mime.startswith("image/") or name.lower().endswith((".png", ".jpg", ".gif"))):
            out.append(f'<img class="attachment-image" src="{_data_url(data, mime or "image/png")}">')
        else:
            size = int(attachment.get("size") or (len(data) if data else 0))
            out.append(f'<div class="file">📄 <span class="link">{_e(name)}</span>'
                       f'<span class="file-size">{size / 1024:.1f} KB</span></div>')
    return "".join(out)


def _used_images(msg: Payload) -> set[str]:
    """The attachment:// URLs an embed or component shows (those attachments are not listed again)."""
    text = repr(msg.get("embeds") or []) + repr(msg.get("components") or [])
    return set(re.findall(r"attachment://[^'\"\s]+", text))


# ---------------------------------------------------------------------------------------------------- messages


def _author(msg: Payload, look: Look) -> tuple[str, str, bool]:
    author = msg.get("author") or {}
    name = str(author.get("global_name") or author.get("username") or look.name(author.get("id") or 0))
    is_app = bool(author.get("bot")) or int(author.get("id") or 0) in look.bot_ids
    return str(author.get("id") or ""), name, is_app


def _avatar_colour(name: str) -> str:
    """One of Discord's default avatar colours, chosen by name (not by id, which changes from run to run)."""
    hues = ("#5865f2", "#3ba55c", "#faa61a", "#ed4245", "#eb459e", "#747f8d")
    return hues[zlib.crc32(name.encode()) % len(hues)]


def _avatar(name: str) -> str:
    return f'<div class="avatar" style="background:{_avatar_colour(name)}">{_e(name[:1].upper())}</div>'


def _command_line(msg: Payload, look: Look) -> str:
    meta = msg.get("interaction_metadata") or {}
    used = look.commands.get(int(meta.get("id") or 0)) if meta else None
    if not used or int(msg.get("type") or 0) != 20:
        return ""
    user = meta.get("user") or {}
    who = str(user.get("global_name") or user.get("username") or "someone")
    return (f'<div class="used"><span class="used-avatar">{_e(who[:1].upper())}</span>'
            f'<span class="used-name">{_e(who)}</span> used <span class="used-command">{_e(used)}</span></div>')


def _body(msg: Payload, look: Look) -> str:
    flags = int(msg.get("flags") or 0)
    images = _attachment_images(msg, look)
    parts: list[str] = []
    if flags & LOADING:
        parts.append('<div class="thinking">pokerbot is thinking<span class="dots">…</span></div>'.replace(
            "pokerbot", _e(_author(msg, look)[1])))
    if msg.get("content"):
        parts.append(markdown(str(msg["content"]), look, jumbo=True))
    if flags & COMPONENTS_V2:
        parts.append(components(msg.get("components") or [], look, images))
    else:
        parts += [_embed(e, look, images) for e in msg.get("embeds") or []]
    parts.append(_files(msg, look, _used_images(msg)))
    if not flags & COMPONENTS_V2 and msg.get("components"):
        parts.append(f'<div class="components">{components(msg["components"], look, images)}</div>')
    if msg.get("edited_timestamp") and msg.get("content") and not msg.get("embeds"):
        parts.append('<span class="edited">(edited)</span>')
    if flags & EPHEMERAL:
        parts.append('<div class="ephemeral-note"><span class="eye">👁</span> Only you can see this · '
                     '<span class="link">Dismiss message</span></div>')
    return "".join(parts)


def _mentions_viewer(msg: Payload, look: Look) -> bool:
    """The message pings the viewer: Discord lists him in ``mentions`` (only when allowed mentions let it ping)."""
    return look.viewer is not None and any(int(u.get("id") or 0) == look.viewer for u in msg.get("mentions") or [])


def message(msg: Payload, look: Look, *, continued: bool = False) -> str:
    """One message: avatar, name (with the APP tag for a bot), time, and what it shows."""
    _, name, is_app = _author(msg, look)
    classes = ["message"]
    if int(msg.get("flags") or 0) & EPHEMERAL:
        classes.append("ephemeral")
    if _mentions_viewer(msg, look):
        classes.append("mentioned")
    when = _clock(_unix(str(msg.get("timestamp") or "")), look)
    if continued:
        classes.append("continued")
        return f'<div class="{" ".join(classes)}"><div class="gutter"></div><div class="main">{_body(msg, look)}' \
               "</div></div>"
    tag = '<span class="app-tag">APP</span>' if is_app else ""
    head = (f'<div class="head"><span class="author">{_e(name)}</span>{tag}'
            f'<span class="time">{_e(when)}</span></div>')
    return (f'<div class="{" ".join(classes)}">{_command_line(msg, look)}<div class="line">'
            f'{_avatar(name)}<div class="main">{head}{_body(msg, look)}</div></div></div>')


def _groups_with(previous: Payload | None, msg: Payload) -> bool:
    """Discord shows a message under the previous one's header: same author, close in time, not a command's reply
    (which has its own "used /command" header), neither of them ephemeral."""
    if previous is None:
        return False
    if (previous.get("author") or {}).get("id") != (msg.get("author") or {}).get("id"):
        return False
    if int(msg.get("type") or 0) == 20 or any(int(m.get("flags") or 0) & EPHEMERAL for m in (previous, msg)):
        return False
    gap = _unix(str(msg.get("timestamp") or "")) - _unix(str(previous.get("timestamp") or ""))
    return 0 <= gap < GROUP_SECONDS


def messages(payloads: Sequence[Payload], look: Look) -> str:
    """Messages in order, grouped under one header as Discord does."""
    out: list[str] = []
    previous: Payload | None = None
    for msg in payloads:
        out.append(message(msg, look, continued=_groups_with(previous, msg)))
        previous = msg
    return "".join(out)


# ---------------------------------------------------------------------------------------------------- overlays


def modal(data: Payload, look: Look, *, app: str = "pokerbot", values: Mapping[str, Sequence[str]] | None = None,
          ) -> str:
    """A form (``InteractionRecord.modal``) as the mobile app shows it, over the whole screen. ``values``: what the
    player picked or typed (by field custom_id), shown filled in."""
    items = [_fill(c, values or {}) for c in data.get("components") or []]
    inner = components(items, look, {})
    return (f'<div class="modal"><div class="modal-head"><span class="modal-close">✕</span>'
            f'<span class="modal-title">{_e(data.get("title") or "")}</span><span></span></div>'
            f'<div class="modal-app">{_e(app)}</div><div class="modal-body">{inner}</div>'
            f'<div class="modal-foot"><span class="button primary wide">Submit</span></div></div>')


def _fill(component: Payload, values: Mapping[str, Sequence[str]]) -> Payload:
    """A copy of a modal's component with the values picked (selects: options marked default) or typed."""
    item = dict(component)
    for key in ("components",):
        if item.get(key):
            item[key] = [_fill(c, values) for c in item[key]]
    if isinstance(item.get("component"), Mapping):
        item["component"] = _fill(item["component"], values)
    picked = values.get(str(item.get("custom_id") or ""))
    if picked is not None:
        if item.get("options") is not None:
            item["options"] = [{**o, "default": str(o.get("value")) in picked} for o in item["options"]]
        else:
            item["value"] = picked[0] if picked else ""
    return item


def select_sheet(select: Payload, look: Look, *, chosen: Sequence[str] = (), whole: bool = False) -> str:
    """The options of a select, opened: the bottom sheet of the mobile app (labels, descriptions, emoji).
    ``whole``: the sheet alone and as tall as all its options (for a crop: what the phone shows by scrolling it),
    not over the screen and cut at its height."""
    multiple = int(select.get("max_values") or 1) > 1
    rows: list[str] = []
    for option in select.get("options") or []:
        picked = str(option.get("value")) in chosen or (not chosen and option.get("default"))
        mark = "check" if multiple else "radio"
        description = option.get("description")
        rows.append(
            f'<div class="option{" picked" if picked else ""}">{_component_emoji(option.get("emoji"), look)}'
            f'<div class="option-text"><div class="option-label">{_e(option.get("label") or "")}</div>'
            + (f'<div class="option-description">{_e(description)}</div>' if description else "")
            + f'</div><span class="mark {mark}"></span></div>')
    title = _e(select.get("placeholder") or "Make a selection")
    shade, css = ("", "sheet whole") if whole else ('<div class="sheet-shade"></div>', "sheet")
    return (f'{shade}<div class="{css}"><div class="sheet-grip"></div>'
            f'<div class="sheet-title">{title}</div>{"".join(rows)}</div>')


# ---------------------------------------------------------------------------------------------------- the page


def page(payloads: Sequence[Payload], look: Look, *, title: str = "#poker", frame: str = "phone",
         overlay: str = "", caption: str = "") -> str:
    """A self-contained HTML page. ``frame`` "phone": a phone's screen (status bar, channel header, the newest
    messages at the bottom, the composer; older messages cut off at the top, as they scroll away); "crop": the
    messages alone, as tall as they are. ``overlay``: a modal or select sheet drawn over the screen."""
    body = messages(payloads, look)
    if frame == "crop":
        screen = f'<div class="crop">{body}</div>{overlay}'
    else:
        dm = not title.startswith("#")
        icon = (f'<span class="head-avatar" style="background:{_avatar_colour(title)}">{_e(title[:1].upper())}</span>'
                if dm else '<span class="hash">#</span>')
        name = _e(title if dm else title[1:])
        place = f"@{_e(title)}" if dm else _e(title)
        screen = (
            f'<div class="phone"><div class="status"><span>{_e(time.strftime("%H:%M", look.shown_time(look.now)))}'
            f'</span><span class="status-icons">▂▄▆ ◔</span></div>'
            f'<div class="header"><span class="back">‹</span>{icon}<span class="channel-name">{name}</span>'
            f'<span class="header-icons">⌕</span></div>'
            f'<div class="scroll"><div class="stack">{body}</div></div>'
            f'<div class="composer"><span class="plus">+</span><span class="input">Message {place}</span>'
            f'<span class="mic">🎙</span></div><div class="home"><span></span></div>{overlay}</div>'
        )
    note = f'<div class="caption">{_e(caption)}</div>' if caption else ""
    return (f'<!doctype html><html><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width={PHONE_WIDTH}, initial-scale=1">'
            f'<style>{CSS}</style></head><body class="{frame}">{screen}{note}</body></html>')


FONT = '"gg sans", "Noto Sans", "Liberation Sans", Arial, "Noto Color Emoji", sans-serif'
CSS = """
* { box-sizing: border-box; }
html, body { margin: 0; padding: 0; overflow: hidden; }
body { width: 390px; background: #313338; color: #dbdee1; font-family: FONT; font-size: 16px;
       line-height: 1.375; -webkit-font-smoothing: antialiased; font-variant-emoji: unicode; }
body.phone { height: 844px; }
.phone { position: relative; width: 390px; height: 844px; display: flex; flex-direction: column; }
.status { height: 47px; flex: none; display: flex; justify-content: space-between; align-items: flex-end;
          padding: 0 28px 6px 32px; font-size: 15px; font-weight: 600; color: #f2f3f5; background: #2b2d31; }
.status-icons { font-size: 12px; letter-spacing: 2px; }
.header { height: 50px; flex: none; display: flex; align-items: center; gap: 8px; padding: 0 14px;
          background: #2b2d31; border-bottom: 1px solid #1f2023; color: #f2f3f5; font-weight: 600; }
.back { font-size: 30px; line-height: 1; color: #b5bac1; margin-top: -4px; }
.hash { font-size: 22px; color: #80848e; font-weight: 500; }
.head-avatar { width: 24px; height: 24px; border-radius: 50%; background: #5865f2; color: #fff; font-size: 13px;
               display: inline-flex; align-items: center; justify-content: center; }
.channel-name { flex: 1; font-size: 17px; }
.header-icons { color: #b5bac1; font-size: 20px; }
.scroll { flex: 1; overflow: hidden; display: flex; flex-direction: column; justify-content: flex-end; }
.stack { padding-bottom: 8px; }
.composer { height: 56px; flex: none; display: flex; align-items: center; gap: 10px; padding: 0 12px;
            background: #313338; }
.composer .plus { width: 36px; height: 36px; border-radius: 50%; background: #2b2d31; color: #b5bac1;
                  display: flex; align-items: center; justify-content: center; font-size: 24px; }
.composer .input { flex: 1; height: 40px; border-radius: 20px; background: #1e1f22; color: #6d6f78;
                   display: flex; align-items: center; padding: 0 16px; font-size: 15px; white-space: nowrap;
                   overflow: hidden; }
.composer .mic { font-size: 18px; filter: grayscale(1); opacity: .6; }
.home { height: 34px; flex: none; display: flex; align-items: center; justify-content: center; }
.home span { width: 134px; height: 5px; border-radius: 3px; background: #dbdee1; opacity: .8; }
.crop { padding: 8px 0; }
.caption { padding: 6px 16px 10px; color: #949ba4; font-size: 12px; }

.message { padding: 2px 16px 2px 16px; margin-top: 14px; position: relative; }
.message.continued { margin-top: 0; display: flex; }
.message.continued .gutter { width: 52px; flex: none; }
.message.ephemeral { background: rgba(88, 101, 242, .07); }
.message.mentioned { background: rgba(240, 178, 50, .10); box-shadow: inset 2px 0 0 #f0b232; }
.line { display: flex; }
.avatar { width: 40px; height: 40px; flex: none; border-radius: 50%; margin-right: 12px; margin-top: 2px; color: #fff;
          font-weight: 600; font-size: 18px; display: flex; align-items: center; justify-content: center; }
.main { min-width: 0; flex: 1; }
.head { display: flex; align-items: baseline; gap: 6px; line-height: 22px; }
.author { color: #f2f3f5; font-weight: 600; font-size: 16px; }
.app-tag { background: #5865f2; color: #fff; font-size: 10px; font-weight: 600; line-height: 15px; height: 15px;
           padding: 0 4px; border-radius: 3px; align-self: center; }
.time { color: #949ba4; font-size: 12px; }
.used { display: flex; align-items: center; gap: 4px; color: #949ba4; font-size: 13px; margin: 0 0 4px 20px;
        position: relative; }
.used::before { content: ""; position: absolute; left: -2px; top: 9px; width: 28px; height: 10px;
                border-left: 2px solid #4e5058; border-top: 2px solid #4e5058; border-top-left-radius: 6px;
                transform: translateX(0); display: none; }
.used-avatar { width: 16px; height: 16px; border-radius: 50%; background: #4e5058; color: #fff; font-size: 10px;
               display: inline-flex; align-items: center; justify-content: center; margin-left: 30px; }
.used-name { color: #c9cdfb; font-weight: 500; }
.used-command { color: #00a8fc; }
.md { word-wrap: break-word; overflow-wrap: anywhere; white-space: normal; }
.md.jumbo .emoji { width: 48px; height: 48px; }
.h1 { font-size: 24px; font-weight: 700; color: #f2f3f5; margin: 8px 0 4px; line-height: 1.25; }
.h2 { font-size: 20px; font-weight: 700; color: #f2f3f5; margin: 8px 0 4px; line-height: 1.25; }
.h3 { font-size: 17px; font-weight: 700; color: #f2f3f5; margin: 8px 0 4px; line-height: 1.25; }
.subtext { font-size: 12px; color: #949ba4; }
.li::before { content: "•"; position: absolute; margin-left: -14px; }
.quote { border-left: 4px solid #4e5058; padding-left: 12px; margin: 2px 0; }
strong { font-weight: 700; color: inherit; }
code { font-family: "DejaVu Sans Mono", monospace; font-size: 13.5px; background: #2b2d31; border: 1px solid #1e1f22;
       border-radius: 4px; padding: 0 3px; }
.embed code, .container code { background: #1e1f22; }
pre.codeblock { font-family: "DejaVu Sans Mono", monospace; font-size: 13px; background: #2b2d31;
                border: 1px solid #1e1f22; border-radius: 4px; padding: 8px; margin: 4px 0; white-space: pre-wrap;
                overflow-wrap: anywhere; line-height: 1.3; }
.mention { background: rgba(88, 101, 242, .3); color: #c9cdfb; border-radius: 3px; padding: 0 2px; font-weight: 500; }
.timestamp { background: rgba(255, 255, 255, .06); border-radius: 3px; padding: 0 2px; }
.link { color: #00a8fc; }
.spoiler { background: #1e1f22; color: transparent; border-radius: 3px; }
.emoji { width: 1.375em; height: 1.375em; vertical-align: -0.3em; object-fit: contain; }
.emoji.missing { width: auto; height: auto; vertical-align: baseline; }
.edited { font-size: 10px; color: #949ba4; margin-left: 4px; }
.thinking { color: #949ba4; font-style: italic; }

.embed { margin-top: 6px; background: #2b2d31; border-left: 4px solid #1e1f22; border-radius: 4px;
         padding: 8px 12px 12px 12px; max-width: 100%; }
.embed-grid { display: flex; gap: 12px; }
.embed-body { flex: 1; min-width: 0; }
.embed-thumbnail { width: 80px; height: 80px; object-fit: contain; border-radius: 3px; flex: none; margin-top: 8px; }
.embed-author { font-size: 14px; font-weight: 600; color: #f2f3f5; margin-top: 4px; }
.embed-title { font-size: 16px; font-weight: 700; color: #f2f3f5; margin-top: 4px; line-height: 1.3; }
.embed-title.link { color: #00a8fc; }
.embed-description { font-size: 14px; line-height: 1.3; margin-top: 4px; }
.embed-fields { margin-top: 4px; }
.embed-field { margin-top: 6px; font-size: 14px; line-height: 1.3; }
.embed-field-name { font-weight: 700; color: #f2f3f5; margin-bottom: 2px; }
.embed-image { display: block; max-width: 100%; border-radius: 4px; margin-top: 12px; }
.embed-footer { font-size: 12px; color: #949ba4; margin-top: 8px; }
.attachment-image { display: block; max-width: 100%; max-height: 300px; border-radius: 8px; margin-top: 6px; }
.file { display: flex; align-items: center; gap: 8px; background: #2b2d31; border: 1px solid #1e1f22;
        border-radius: 8px; padding: 10px 12px; margin-top: 6px; font-size: 15px; }
.file-size { color: #949ba4; font-size: 12px; margin-left: auto; }

.components { margin-top: 6px; }
.row { display: flex; flex-wrap: wrap; gap: 8px; margin-top: 8px; }
.row:first-child { margin-top: 0; }
.button { display: inline-flex; align-items: center; justify-content: center; gap: 6px; height: 36px; min-width: 60px;
          padding: 0 14px; border-radius: 8px; font-size: 14px; font-weight: 600; color: #fff; white-space: nowrap; }
.button.primary { background: #5865f2; }
.button.secondary, .button.link { background: #4e5058; }
.button.success { background: #248046; }
.button.danger { background: #da373c; }
.button.premium { background: #5865f2; }
.button.disabled { opacity: .5; }
.button.wide { width: 100%; height: 44px; font-size: 16px; }
.link-icon { font-size: 12px; }
.component-emoji { font-size: 18px; line-height: 1; }
img.component-emoji { width: 22px; height: 22px; vertical-align: middle; }
.select { display: flex; align-items: center; justify-content: space-between; width: 100%; min-height: 44px;
          padding: 8px 12px; background: #1e1f22; border: 1px solid #1e1f22; border-radius: 8px; font-size: 15px;
          margin-top: 8px; }
.row .select { margin-top: 0; }
.select.disabled { opacity: .5; }
.select-placeholder { color: #949ba4; }
.select-value { color: #dbdee1; }
.chevron { color: #b5bac1; font-size: 20px; line-height: 1; margin-top: -8px; }
.text-input { min-height: 44px; padding: 10px 12px; background: #1e1f22; border-radius: 8px; font-size: 15px; }
.text-input.paragraph { min-height: 96px; }

.container { background: #2b2d31; border: 1px solid #1e1f22; border-radius: 8px; padding: 12px; margin-top: 6px; }
.container .row { margin-top: 8px; }
.text-display { font-size: 15px; margin: 2px 0; }
.section { display: flex; gap: 12px; align-items: center; }
.section-text { flex: 1; min-width: 0; }
.thumbnail { width: 64px; height: 64px; object-fit: contain; border-radius: 6px; }
.gallery { display: flex; flex-wrap: wrap; gap: 4px; margin-top: 6px; }
.gallery img { max-width: 100%; border-radius: 6px; }
.separator { height: 8px; }
.separator.s2 { height: 16px; }
.separator.line { height: 1px; background: #3f4147; margin: 8px 0; }
.separator.line.s2 { margin: 16px 0; }
.ephemeral-note { font-size: 12px; color: #949ba4; margin-top: 4px; }
.eye { filter: grayscale(1); font-size: 12px; }

.modal { position: absolute; inset: 47px 0 0 0; background: #313338; border-radius: 14px 14px 0 0;
         box-shadow: 0 -2px 12px rgba(0,0,0,.5); display: flex; flex-direction: column; }
.modal-head { display: flex; justify-content: space-between; align-items: center; padding: 14px 16px 4px; }
.modal-close { color: #b5bac1; font-size: 20px; width: 24px; }
.modal-title { color: #f2f3f5; font-weight: 700; font-size: 18px; }
.modal-app { text-align: center; color: #949ba4; font-size: 13px; }
.modal-body { padding: 8px 16px; flex: 1; overflow: hidden; }
.modal-foot { padding: 12px 16px 42px; }
.label { margin-top: 16px; }
.label-text { color: #f2f3f5; font-weight: 600; font-size: 15px; }
.label-description { color: #b5bac1; font-size: 13px; margin: 2px 0 4px; }
.sheet-shade { position: absolute; inset: 0; background: rgba(0, 0, 0, .6); }
.sheet { position: absolute; left: 0; right: 0; bottom: 0; background: #2b2d31; border-radius: 16px 16px 0 0;
         padding: 8px 0 40px; max-height: 700px; overflow: hidden; }
.sheet.whole { position: static; max-height: none; padding-bottom: 16px; }
.sheet-grip { width: 40px; height: 5px; border-radius: 3px; background: #4e5058; margin: 0 auto 10px; }
.sheet-title { color: #f2f3f5; font-weight: 700; font-size: 16px; padding: 4px 16px 10px; }
.option { display: flex; align-items: center; gap: 12px; padding: 10px 16px; border-top: 1px solid #3f4147; }
.option.picked { background: rgba(88, 101, 242, .15); }
.option-text { flex: 1; min-width: 0; }
.option-label { color: #f2f3f5; font-size: 16px; }
.option-description { color: #949ba4; font-size: 13px; }
.mark { width: 22px; height: 22px; flex: none; border: 2px solid #80848e; border-radius: 6px; position: relative; }
.mark.radio { border-radius: 50%; }
.option.picked .mark { background: #5865f2; border-color: #5865f2; }
.option.picked .mark.check::after { content: ""; position: absolute; left: 6px; top: 1px; width: 5px; height: 11px;
                                    border: solid #fff; border-width: 0 2px 2px 0; transform: rotate(45deg); }
.option.picked .mark.radio::after { content: ""; position: absolute; left: 5px; top: 5px; width: 8px; height: 8px;
                                    border-radius: 50%; background: #fff; }
""".replace("FONT", FONT)

