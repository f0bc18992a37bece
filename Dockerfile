# The bot in a container: `docker build -t draw-poker-bot .` then
# `docker run -e DISCORD_TOKEN=... -v poker-data:/data draw-poker-bot`.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

RUN groupadd --system --gid 1000 poker \
    && useradd --system --uid 1000 --gid poker --home-dir /app --shell /usr/sbin/nologin poker \
    && mkdir -p /data \
    && chown poker:poker /data

WORKDIR /app
COPY pyproject.toml ./
COPY bot ./bot
COPY cogs ./cogs
RUN pip install . && rm -rf build *.egg-info

ENV POKER_DB=/data/poker.db
VOLUME ["/data"]

USER poker
CMD ["python", "-m", "bot"]
