"""Routes of an interaction's answer: the callback (answered as an InteractionCallbackResponse, pitfall 2), and
the interaction webhook (followups, and ``@original`` or a followup fetched, edited or deleted)."""

from __future__ import annotations

import copy

from ..answers import Answer, ApiError
from ..constants import (
    ALLOWED_CALLBACKS,
    CALLBACK_AUTOCOMPLETE,
    CALLBACK_DEFERRED_MESSAGE,
    CALLBACK_DEFERRED_UPDATE,
    CALLBACK_MESSAGE,
    CALLBACK_MODAL,
    CALLBACK_UPDATE,
    JSON,
    MessageFlag,
)
from ..form import FormErrors
from ..gateway import Gateway
from ..guild import Guild
from ..interactions import InteractionLog
from ..limits import check_message_body, check_not_empty, validate_choices, validate_message, validate_modal
from ..model import StoredMessage
from ..records import InteractionRecord, RestCall
from ..runtime import Runtime
from ..seams import Seams
from ..server import Route, route
from ..violations import Violations


class InteractionRoutes:
    def __init__(
        self,
        guild: Guild,
        interactions: InteractionLog,
        violations: Violations,
        gateway: Gateway,
        runtime: Runtime,
        seams: Seams,
    ) -> None:
        self.guild = guild
        self.interactions = interactions
        self.violations = violations
        self.gateway = gateway
        self.runtime = runtime
        self.seams = seams

    def routes(self) -> list[Route]:
        webhook_message = "/webhooks/{app_id}/{token}/messages/{message_id}"
        return [
            route("POST", "/interactions/{interaction_id}/{token}/callback", self.seams._callback),
            route("POST", "/webhooks/{app_id}/{token}", self.followup),
            route("GET", webhook_message, self.webhook_message),
            route("PATCH", webhook_message, self.webhook_message),
            route("DELETE", webhook_message, self.webhook_message),
        ]

    # -- the callback -------------------------------------------------------------------------------------------

    async def callback(self, call: RestCall) -> Answer:
        rec = self.interactions.records.get(call.interaction_id or 0)
        if rec is None or rec.token != call.params["token"]:
            raise ApiError(404, 10062, "Unknown interaction", violation="unknown-interaction")
        body = call.json if isinstance(call.json, dict) else {}
        rtype = int(body.get("type") or 0)
        data: JSON = body.get("data") or {}
        if rec.response_type is not None:
            # Asking again after the answer to the first response was lost (a connection fault) is how a bot
            # finds out that it went through: Discord answers 40060, and the bot did nothing wrong.
            unseen = rec.ack_call is not None and rec.ack_call.fault is not None and rec.ack_call.fault.connection
            raise ApiError(
                400,
                40060,
                "Interaction has already been acknowledged.",
                violation=None if unseen else "already-acknowledged",
                detail=f"interaction {rec.id} ({rec.describe()}) answered twice "
                f"(type {rec.response_type}, then {rtype})",
            )
        latency = self.runtime.now() - rec.sent_at
        if latency > rec.deadline or rec.late:
            self._too_late(rec, call, latency)
        self._check_response(rec, rtype, data, files=len(call.files))

        rec.response_type, rec.acked_at, rec.ack_latency, rec.ack_call = rtype, self.runtime.now(), latency, call
        message = await self._apply(rec, rtype, data, call)
        self.runtime.notify()

        interaction: JSON = {
            "id": str(rec.id),
            "type": rec.type,
            "response_message_loading": rtype == CALLBACK_DEFERRED_MESSAGE,
            "response_message_ephemeral": bool(message and message.ephemeral),
        }
        resource: JSON = {"type": rtype}
        if message is not None:
            interaction["response_message_id"] = str(message.id)
            if rtype != CALLBACK_DEFERRED_UPDATE:
                resource["message"] = message.payload()
        body_out: JSON = {"interaction": interaction}
        if rtype != CALLBACK_DEFERRED_UPDATE:
            body_out["resource"] = resource
        if call.query.get("with_response") in ("1", "true", "True"):
            return Answer(200, body_out)
        return Answer(204)

    def _too_late(self, rec: InteractionRecord, call: RestCall, latency: float) -> None:
        """10062, and the ack-deadline violation (recorded when the deadline passed) now says how late."""
        rec.late, rec.ack_latency = True, latency
        detail = f"interaction {rec.id} ({rec.describe()}) acknowledged after {latency:.3f}s (deadline {rec.deadline}s)"
        existing = self.violations.find("ack-deadline", rec.id)
        if existing is not None:
            existing.detail, existing.call = detail, call
        else:
            self.violations.record("ack-deadline", detail, call=call, interaction_id=rec.id)
        self.runtime.notify()
        raise ApiError(404, 10062, "Unknown interaction")

    @staticmethod
    def _check_response(rec: InteractionRecord, rtype: int, data: JSON, *, files: int) -> None:
        if rtype not in ALLOWED_CALLBACKS.get(rec.type, frozenset()) or (
            rtype in (CALLBACK_DEFERRED_UPDATE, CALLBACK_UPDATE) and rec.source_message is None
        ):
            errors = FormErrors()
            errors.add(
                ("type",),
                "INTERACTION_RESPONSE_TYPE_INVALID",
                f"Response type {rtype} is invalid for this interaction.",
            )
            raise ApiError(
                400,
                50035,
                "Invalid Form Body",
                errors=errors.nested(),
                violation="invalid-response-type",
                detail=f"callback type {rtype} to a type-{rec.type} interaction ({rec.describe()})",
            )
        errors = FormErrors()
        if rtype in (CALLBACK_MESSAGE, CALLBACK_UPDATE):
            validate_message(errors, data, ("data",))
        elif rtype == CALLBACK_MODAL:
            validate_modal(errors, data, ("data",))
        elif rtype == CALLBACK_AUTOCOMPLETE:
            validate_choices(errors, data.get("choices") or [], ("data", "choices"))
        errors.raise_if_any()
        if rtype == CALLBACK_MESSAGE:
            check_not_empty(data, files)
        if rtype == CALLBACK_UPDATE and rec.source_message is not None:
            check_not_empty(data, files, base=rec.source_message)

    async def _apply(self, rec: InteractionRecord, rtype: int, data: JSON, call: RestCall) -> StoredMessage | None:
        """What the response does: a new message, a loading one, an edit of the component's message, a modal..."""
        message: StoredMessage | None = None
        channel = self.guild.channels[rec.channel_id]
        flags = int(data.get("flags") or 0)
        if rtype == CALLBACK_MESSAGE:
            message = self.seams._new_message(channel, data, call.files, interaction=rec)
            rec.original = message
        elif rtype == CALLBACK_DEFERRED_MESSAGE:
            loading = {"flags": MessageFlag.LOADING | (flags & MessageFlag.EPHEMERAL)}
            message = self.seams._new_message(channel, loading, [], interaction=rec)
            rec.original = message
        elif rtype in (CALLBACK_DEFERRED_UPDATE, CALLBACK_UPDATE):
            message = rec.source_message
            assert message is not None
            rec.original = message
            if rtype == CALLBACK_UPDATE and not message.deleted:
                self.seams._apply_edit(message, data, call.files)
        elif rtype == CALLBACK_MODAL:
            rec.modal = copy.deepcopy(data)
            self.interactions.show_modal(rec, rec.modal)
        elif rtype == CALLBACK_AUTOCOMPLETE:
            rec.choices = list(data.get("choices") or [])
        if message is not None and rtype in (CALLBACK_MESSAGE, CALLBACK_DEFERRED_MESSAGE):
            await self.gateway.message_event("MESSAGE_CREATE", message)
        elif message is not None and rtype == CALLBACK_UPDATE:
            await self.gateway.message_event("MESSAGE_UPDATE", message)
        return message

    # -- the interaction webhook --------------------------------------------------------------------------------

    def _webhook_interaction(self, call: RestCall) -> InteractionRecord:
        app_id = call.params.get("app_id")
        if app_id != str(self.guild.app_id):
            raise ApiError(404, 10015, "Unknown Webhook", violation="unknown-webhook", detail=f"webhook id {app_id}")
        rec = self.interactions.by_token.get(call.params["token"])
        if rec is None:
            raise ApiError(
                404, 10015, "Unknown Webhook", violation="unknown-webhook", detail="no interaction has this token"
            )
        if self.interactions.token_expired(rec):
            raise ApiError(
                401,
                50027,
                "Invalid Webhook Token",
                violation="expired-token",
                detail=f"interaction {rec.id} ({rec.describe()}): token used after it expired",
            )
        if rec.response_type is None:
            raise ApiError(
                404,
                10015,
                "Unknown Webhook",
                violation="followup-before-ack",
                detail=f"interaction {rec.id} ({rec.describe()}): webhook used before the interaction was acknowledged",
            )
        return rec

    async def followup(self, call: RestCall) -> Answer:
        rec = self._webhook_interaction(call)
        data = call.json if isinstance(call.json, dict) else {}
        check_message_body(data, len(call.files))
        message = self.seams._new_message(self.guild.channels[rec.channel_id], data, call.files, interaction=rec)
        rec.followups.append(message)
        await self.gateway.message_event("MESSAGE_CREATE", message)
        self.runtime.notify()
        if call.query.get("wait") in ("1", "true", "True"):
            return Answer(body=message.payload())
        return Answer(204)

    async def webhook_message(self, call: RestCall) -> Answer:
        rec = self._webhook_interaction(call)
        wanted = call.params["message_id"]
        if wanted == "@original":
            message = rec.original
        else:
            message = next((m for m in [rec.original, *rec.followups] if m is not None and str(m.id) == wanted), None)
        if message is None or message.deleted:
            raise ApiError(404, 10008, "Unknown Message")
        if call.method == "GET":
            return Answer(body=message.payload())
        if call.method == "DELETE":
            message.deleted = True
            await self.gateway.message_event("MESSAGE_DELETE", message)
            self.runtime.notify()
            return Answer(204)
        data = call.json if isinstance(call.json, dict) else {}
        check_message_body(data, len(call.files), base=message)
        self.seams._apply_edit(message, data, call.files)
        await self.gateway.message_event("MESSAGE_UPDATE", message)
        self.runtime.notify()
        return Answer(body=message.payload())
