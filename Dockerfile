# The bot in a container: `docker build -t draw-poker-bot .`, then
# `docker run -d --name poker --env-file .env -v poker-data:/data --restart unless-stopped draw-poker-bot`
# (README: "In a container": bind mounts, backups, the health check).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

# The bot runs as uid 1000 (a bind-mounted data folder must be writable by it: README).
RUN groupadd --system --gid 1000 poker \
    && useradd --system --uid 1000 --gid poker --home-dir /app --shell /usr/sbin/nologin poker \
    && mkdir -p /data \
    && chown poker:poker /data

WORKDIR /app
# The dependencies first, read from pyproject.toml alone: a change of the code rebuilds only the small layers below.
# The postgres extra (the asyncpg driver) too: POKER_DB may be a postgresql:// URL (compose.yaml).
COPY pyproject.toml ./
RUN python -c "import tomllib; p = tomllib.load(open('pyproject.toml', 'rb'))['project']; \
print('\n'.join(p['dependencies'] + p['optional-dependencies']['postgres']))" > /tmp/requirements.txt \
    && pip install -r /tmp/requirements.txt \
    && rm /tmp/requirements.txt
COPY bot ./bot
COPY cogs ./cogs
RUN pip install --no-deps . && rm -rf build *.egg-info

ENV POKER_DB=/data/poker.db \
    HEALTH_FILE=/tmp/poker-bot.health
VOLUME ["/data"]

USER poker
# Unhealthy once the bot has been out of touch with Discord for 3 minutes (bot/runtime/health.py).
HEALTHCHECK --interval=60s --timeout=10s --start-period=120s --retries=2 CMD ["python", "-m", "bot", "health"]
# Python is process 1 and gets docker stop's SIGTERM itself: the bot stops within 10 s, the hand in play kept.
STOPSIGNAL SIGTERM
CMD ["python", "-m", "bot"]
