# Apocalypse Arena API image: gunicorn serving api.app:create_app() (the same image runs
# `arena worker`, see compose.yaml). Needs REDIS_URL; without it use `arena serve` locally.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app
COPY pyproject.toml README.md LICENSE ./
COPY domain ./domain
COPY service ./service
COPY workers ./workers
COPY api ./api
COPY cli ./cli
COPY openapi.yaml ./
RUN pip install . \
    && useradd --system --no-create-home --uid 10001 arena
USER arena

EXPOSE 8000
# gthread workers (api.wire_errors.ProblemThreadWorker: gunicorn's gthread answering its own
# 414/431/400 as problem+json): long-polls (GET .../events?wait=S) hold a thread, not a process.
CMD ["gunicorn", "--bind", "0.0.0.0:8000", "--workers", "2", "--threads", "8", \
     "--worker-class", "api.wire_errors.ProblemThreadWorker", "--timeout", "120", "--access-logfile", "-", \
     "api.app:create_app()"]
