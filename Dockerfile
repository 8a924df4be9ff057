# Apocalypse Arena API image: gunicorn serving api.app:create_app() (the same image runs
# `arena worker`, see compose.yaml). Needs REDIS_URL; without it use `arena serve` locally.
# Dependencies at the exact versions of constraints.txt; the `cli` extra (rich, requests,
# fakeredis: `arena play`, the embedded mode) is not installed.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PROMETHEUS_MULTIPROC_DIR=/tmp/arena-prometheus

WORKDIR /app
COPY pyproject.toml constraints.txt README.md LICENSE ./
COPY domain ./domain
COPY service ./service
COPY workers ./workers
COPY api ./api
COPY cli ./cli
COPY openapi.yaml ./
RUN pip install -c constraints.txt . \
    && useradd --system --no-create-home --uid 10001 arena
USER arena

EXPOSE 8000
# Liveness: the process answers (no Redis call; /readyz and /healthz report Redis too).
HEALTHCHECK --interval=10s --timeout=3s --start-period=15s --retries=3 \
    CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/livez', timeout=2)"]
# api.gunicorn_config: the start-up check of every variable (a bad one exits 1, one line),
# gthread workers answering their own 414/431/400 as problem+json (long-polls hold a thread,
# not a process), the access log with request ids and no tokens, prometheus_client's
# multi-process directory.
CMD ["gunicorn", "-c", "python:api.gunicorn_config", "--bind", "0.0.0.0:8000", \
     "--worker-class", "api.wire_errors.ProblemThreadWorker", "--workers", "2", "--threads", "48", \
     "api.app:create_app()"]
