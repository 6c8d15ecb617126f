"""Checks compose.yaml without pulling anything: it parses (YAML merge keys resolved), and the services keep the
shape the README promises. Podman's and Docker's compose need images to go further; neither is used here.
   usage: python3 scripts/check-compose.py compose.yaml"""
import sys

import yaml

path = sys.argv[1] if len(sys.argv) > 1 else "compose.yaml"
with open(path, encoding="utf-8") as handle:
    compose = yaml.safe_load(handle)
problems = []


def need(condition, message):
    if not condition:
        problems.append(message)


services = compose.get("services", {})
volumes = compose.get("volumes", {}) or {}
for name in ("postgres", "migrate", "api", "worker"):
    need(name in services, f"service {name} is missing")
if not problems:
    postgres, migrate, api, worker = (services[n] for n in ("postgres", "migrate", "api", "worker"))
    need(str(postgres.get("image", "")).startswith("postgres:15"), "postgres must run PostgreSQL 15")
    need(any(str(v).split(":")[0] in volumes for v in postgres.get("volumes", [])), "postgres needs a named volume")
    need("test" in postgres.get("healthcheck", {}), "postgres needs a health check")
    need(migrate.get("command") == ["migrate"], "migrate must run the migrate role")
    need(migrate.get("restart") == "no", "migrate is one-shot (restart: \"no\")")
    for name, service in (("migrate", migrate), ("api", api), ("worker", worker)):
        env = service.get("environment", {})
        need("build" in service and "image" in service, f"{name} builds and names the one image")
        need("${ENCRYPTION_KEY:?" in str(env.get("ENCRYPTION_KEY", "")), f"{name} must require ENCRYPTION_KEY from .env")
        need("@postgres:5432/" in str(env.get("DATABASE_URL", "")), f"{name} must use the postgres service")
        need(service.get("depends_on", {}).get("postgres", {}).get("condition") == "service_healthy",
             f"{name} must wait for a healthy postgres")
    for name, service in (("api", api), ("worker", worker)):
        need(service.get("depends_on", {}).get("migrate", {}).get("condition") == "service_completed_successfully",
             f"{name} must start after migrate succeeded")
        need(service.get("restart") in ("unless-stopped", "always", "on-failure"), f"{name} needs a restart policy")
    need(api.get("command") == ["api"], "api must run the api role")
    need(bool(api.get("ports")), "api must publish its port")
    need("/healthz" in str(api.get("healthcheck", {}).get("test", "")), "api needs a /healthz health check")
    need(worker.get("command") == ["worker"], "worker must run the worker role")
    # --scale needs generated names and no fixed host port.
    need("container_name" not in worker and "ports" not in worker, "worker must stay scalable (no container_name or ports)")
    need(worker.get("healthcheck", {}).get("disable") is True, "worker has no HTTP port: its health check is off")

if problems:
    for problem in problems:
        print(f"FAILED: {path}: {problem}", file=sys.stderr)
    sys.exit(1)
print(f"{path}: services {', '.join(services)} and volumes {', '.join(volumes)} as documented")
