# Build stage: resolve and build the wheels once.
FROM python:3.11-slim AS build
WORKDIR /src
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY cogs ./cogs
RUN pip wheel --no-cache-dir --wheel-dir /wheels .

# Run stage: only the installed package, as an unprivileged user.
FROM python:3.11-slim
ENV PYTHONUNBUFFERED=1 PYTHONDONTWRITEBYTECODE=1
RUN useradd --create-home --uid 10001 gobelet
COPY --from=build /wheels /wheels
RUN pip install --no-cache-dir /wheels/*.whl && rm -rf /wheels
WORKDIR /app
COPY data ./data
RUN chown -R gobelet:gobelet /app
USER gobelet
VOLUME ["/app/data"]
CMD ["python", "-m", "bot"]
