# Build stage: the pinned dependencies, the bot, and the Yadès expert's tables.
FROM python:3.11-slim AS build
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1 PATH=/venv/bin:$PATH
RUN python -m venv /venv
WORKDIR /src
# The exact versions CI tested, each file checked against its hash.
COPY requirements.lock ./
RUN pip install --require-hashes -r requirements.lock
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY cogs ./cogs
RUN pip install --no-deps .
# The presets' tables, outside the data volume (a bind mount there would hide them): the
# repository's, kept when they fit their sheets, any other solved now rather than at start.
COPY data/*.bin /app/share/
RUN python -m bot.yades_tables /app/share

# Run stage: the virtual environment and the tables, as an unprivileged user.
FROM python:3.11-slim
ENV PYTHONUNBUFFERED=1 PYTHONDONTWRITEBYTECODE=1 PATH=/venv/bin:$PATH \
    GOBELET_SHIPPED_DIR=/app/share \
    GOBELET_HTTP_PORT=8080 \
    GOBELET_HTTP_HOST=0.0.0.0 \
    GOBELET_WEB_HOST=0.0.0.0
RUN useradd --create-home --uid 10001 gobelet
COPY --from=build /venv /venv
# Owned by root: the bot reads its shipped tables and never writes them.
COPY --from=build /app/share /app/share
WORKDIR /app
RUN mkdir data && chown gobelet:gobelet data
USER gobelet
# The SQLite database (the default GOBELET_DATABASE_URL, data/gobelet.db) and the caches.
VOLUME ["/app/data"]
EXPOSE 8080 8081
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["python", "-m", "bot.probe"]
CMD ["python", "-m", "bot"]
