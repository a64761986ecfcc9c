"""A labelled set for secret redaction: secrets in realistic text, and hard negatives.

``build_cases()`` is deterministic (seeded). Every secret is synthetic — random characters in the
alphabet and length each provider publishes — never a real credential. A case's ``secrets`` give
the exact span of each secret value in ``text``; a negative case has none, and any finding in it is
a false positive. Used by ``tests/gate/test_secrets.py`` and ``benchmarks/redaction.py``.
"""

from __future__ import annotations

import base64
import json
import random
import string
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

SEED = 20251129
CASES_PER_KIND = 20
CASES_FOR_KIND = {"password": 72, "generic-secret": 36, "connection-password": 24}
CASES_PER_NEGATIVE = 20

# Formats with a fixed literal prefix or structure: the measurement holds these to recall ≥ 0.98.
PREFIXED_KINDS = frozenset(
    {
        "anthropic-key",
        "openai-key",
        "aws-access-key-id",
        "github-token",
        "gitlab-token",
        "slack-token",
        "slack-webhook",
        "google-api-key",
        "google-oauth",
        "stripe-key",
        "twilio-key",
        "sendgrid-key",
        "npm-token",
        "pypi-token",
        "huggingface-token",
        "jwt",
        "private-key",
    }
)


@dataclass(frozen=True, slots=True)
class LabelledSecret:
    kind: str
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class SecretCase:
    name: str  # "<kind>/<template>" or "negative/<category>"
    text: str
    secrets: tuple[LabelledSecret, ...]

    def values(self) -> tuple[str, ...]:
        return tuple(self.text[s.start : s.end] for s in self.secrets)


@dataclass(frozen=True, slots=True)
class Slot:
    """Where a generated secret goes in a template."""

    kind: str
    style: str = ""


Parts = tuple[str | Slot, ...]
Template = Callable[[random.Random], Parts]

ALNUM = string.ascii_letters + string.digits
B64 = ALNUM + "+/"
B64URL = ALNUM + "-_"
HEX = "0123456789abcdef"
UPPER32 = string.ascii_uppercase + "234567"
BASE32_LOWER = string.ascii_lowercase + "234567"
CROCKFORD32 = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


def rand(rng: random.Random, alphabet: str, n: int) -> str:
    return "".join(rng.choice(alphabet) for _ in range(n))


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


# ---------------------------------------------------------------------------------------------
# Secret values, by kind (and style where a context constrains the characters).

WORDS = (
    "sunflower",
    "falcon",
    "harbor",
    "maple",
    "copper",
    "violet",
    "thunder",
    "lantern",
    "orchid",
    "pepper",
    "glacier",
    "saturn",
    "cobalt",
    "meadow",
    "raven",
    "willow",
    "ember",
    "quartz",
)
SYMBOLS = "!@#$%^&*-_+=~"


def make_password(rng: random.Random, style: str = "") -> str:
    if style == "url":  # no characters that would need percent-encoding
        return (
            rand(rng, ALNUM, rng.randint(10, 20))
            + rng.choice(("", "-", "_", "~"))
            + str(rng.randint(10, 99))
        )
    if style == "word":  # a plain lowercase word: only a config line or a clear sentence says so
        return rng.choice(WORDS) + rng.choice(WORDS)
    if style == "strong":  # letters and digits, so that it stands out with no verb before it
        return rng.choice(WORDS).capitalize() + str(rng.randint(100, 99999))
    shape = rng.randint(0, 3)
    if shape == 0:
        return rng.choice(WORDS) + str(rng.randint(10, 9999))
    if shape == 1:
        return rng.choice(WORDS).capitalize() + rng.choice(SYMBOLS) + str(rng.randint(1990, 2030))
    if shape == 2:
        return "-".join(rng.choice(WORDS) for _ in range(2)) + "-" + str(rng.randint(10, 99))
    # first not "=": `password==x` reads as a comparison; last not punctuation a sentence ends with
    first = rng.choice(ALNUM + SYMBOLS.replace("=", ""))
    core = rand(rng, ALNUM + SYMBOLS, rng.randint(10, 18))
    return first + core + rng.choice(string.digits + string.ascii_letters)


def make_jwt(rng: random.Random) -> str:
    alg = rng.choice(("HS256", "RS256", "ES256", "HS512"))
    header: dict[str, str] = {"alg": alg, "typ": "JWT"}
    if rng.random() < 0.4:
        header["kid"] = rand(rng, HEX, 16)
    payload = {
        "sub": str(rng.randint(10**5, 10**9)),
        "iat": 1_700_000_000 + rng.randint(0, 10**7),
        "exp": 1_800_000_000 + rng.randint(0, 10**7),
    }
    if rng.random() < 0.5:
        payload["email"] = f"{rng.choice(WORDS)}@example.org"
    signature_bytes = {"HS256": 32, "HS512": 64, "RS256": 256, "ES256": 64}[alg]
    sig = b64url(bytes(rng.getrandbits(8) for _ in range(signature_bytes)))
    head = b64url(json.dumps(header, separators=(",", ":")).encode())
    body = b64url(json.dumps(payload, separators=(",", ":")).encode())
    return f"{head}.{body}.{sig}"


PEM_LABELS = (
    "RSA PRIVATE KEY",
    "PRIVATE KEY",
    "EC PRIVATE KEY",
    "OPENSSH PRIVATE KEY",
    "ENCRYPTED PRIVATE KEY",
    "PGP PRIVATE KEY BLOCK",
)


def make_pem(rng: random.Random, newline: str = "\n", indent: str = "", cut: bool = False) -> str:
    label = rng.choice(PEM_LABELS)
    body = base64.b64encode(bytes(rng.getrandbits(8) for _ in range(rng.randint(120, 900))))
    lines = [body[i : i + 64].decode() for i in range(0, len(body), 64)]
    if label == "PGP PRIVATE KEY BLOCK":
        lines = ["Version: GnuPG v2", "", *lines, "=" + rand(rng, B64, 4)]
    out = [f"-----BEGIN {label}-----", *lines]
    if cut:  # pasted without its end: the span stops at a base64 line, two at least
        first_body_line = 4 if label == "PGP PRIVATE KEY BLOCK" else 2
        out = out[: rng.randint(first_body_line + 1, len(out))]
    else:
        out.append(f"-----END {label}-----")
    return (newline + indent).join(out)


def make_value(rng: random.Random, slot: Slot) -> str:
    kind, style = slot.kind, slot.style
    if kind == "openai-key":
        shape = rng.randint(0, 3)
        if shape == 0:
            return "sk-proj-" + rand(rng, B64URL, 74) + "T3BlbkFJ" + rand(rng, B64URL, 74)
        if shape == 1:
            return "sk-" + rand(rng, ALNUM, 20) + "T3BlbkFJ" + rand(rng, ALNUM, 20)
        if shape == 2:
            return "sk-svcacct-" + rand(rng, B64URL, 64) + "T3BlbkFJ" + rand(rng, B64URL, 64)
        return "sk-" + rand(rng, ALNUM, 48)
    if kind == "anthropic-key":
        kind_word = rng.choice(("api03", "api03", "admin01"))
        return f"sk-ant-{kind_word}-" + rand(rng, B64URL, 93) + "AA"
    if kind == "aws-access-key-id":
        return rng.choice(("AKIA", "AKIA", "ASIA")) + rand(rng, UPPER32, 16)
    if kind == "aws-secret-key":
        return rand(rng, B64, 40)
    if kind == "github-token":
        if rng.random() < 0.3:
            return "github_pat_" + rand(rng, ALNUM, 22) + "_" + rand(rng, ALNUM, 59)
        return "gh" + rng.choice("pousr") + "_" + rand(rng, ALNUM, 36)
    if kind == "gitlab-token":
        prefix = rng.choice(("glpat-", "glpat-", "gldt-", "glrt-"))
        if rng.random() < 0.3:
            return prefix + rand(rng, B64URL, 27) + ".01." + rand(rng, HEX + "xyz", 9)
        return prefix + rand(rng, ALNUM + "_-", 20)
    if kind == "slack-token":
        prefix = rng.choice(("xoxb", "xoxp", "xoxa", "xoxs"))
        ids = "-".join(str(rng.randint(10**10, 10**13)) for _ in range(2))
        return f"{prefix}-{ids}-" + rand(rng, ALNUM, 24)
    if kind == "slack-webhook":
        team, bot = "T" + rand(rng, UPPER32, 8), "B" + rand(rng, UPPER32, 10)
        return f"https://hooks.slack.com/services/{team}/{bot}/" + rand(rng, ALNUM, 24)
    if kind == "google-api-key":
        return "AIza" + rand(rng, B64URL, 35)
    if kind == "google-oauth":
        if rng.random() < 0.5:
            return "GOCSPX-" + rand(rng, B64URL, 28)
        return "ya29." + rand(rng, B64URL, rng.randint(80, 160))
    if kind == "stripe-key":
        prefix = rng.choice(("sk_live_", "sk_test_", "rk_live_", "whsec_"))
        return prefix + rand(rng, ALNUM, rng.choice((24, 32, 99)))
    if kind == "twilio-key":
        return "SK" + rand(rng, HEX, 32)
    if kind == "sendgrid-key":
        return "SG." + rand(rng, B64URL, 22) + "." + rand(rng, B64URL, 43)
    if kind == "npm-token":
        return "npm_" + rand(rng, ALNUM, 36)
    if kind == "pypi-token":
        return "pypi-AgEIcHlwaS5vcmc" + rand(rng, B64URL, rng.randint(60, 160))
    if kind == "huggingface-token":
        return "hf_" + rand(rng, string.ascii_letters, 34)
    if kind == "jwt":
        return make_jwt(rng)
    if kind == "private-key":
        if style == "json":
            return make_pem(rng, newline="\\n")
        if style == "yaml":
            return make_pem(rng, indent="    ")
        if style == "cut":
            return make_pem(rng, cut=True)
        return make_pem(rng)
    if kind == "connection-password":
        return make_password(rng, "url")
    if kind == "bearer-token":
        return rand(rng, B64URL, rng.randint(32, 64))
    if kind == "basic-auth":
        user = rng.choice(("admin", "deploy", "ci", "ann", "grafana"))
        return base64.b64encode(f"{user}:{make_password(rng, 'url')}".encode()).decode()
    if kind == "password":
        return make_password(rng, style)
    if kind == "generic-secret":
        shape = style or rng.choice(("hex32", "hex64", "b64", "alnum", "uuid"))
        if shape == "hex32":
            return rand(rng, HEX, 32)
        if shape == "hex64":
            return rand(rng, HEX, 64)
        if shape == "b64":
            return rand(rng, B64URL, rng.randint(32, 48))
        if shape == "b64long":
            return b64blob(rng, rng.choice((64, 96, 240)))
        if shape == "uuid":
            return str(uuid.UUID(int=rng.getrandbits(128), version=4))
        return rand(rng, ALNUM, rng.randint(24, 40))
    raise ValueError(kind)


# ---------------------------------------------------------------------------------------------
# Where secrets show up. Each template returns text pieces with Slot() where a secret goes.

HOSTS = ("db.internal", "10.0.3.17", "prod-db-01.eu-west-1.rds.amazonaws.com", "localhost")
USERS = ("app", "admin", "deploy", "ann", "postgres", "svc_reporting")
TS = "2025-11-27T10:{:02d}:{:02d}Z"


def ts(rng: random.Random) -> str:
    return TS.format(rng.randint(0, 59), rng.randint(0, 59))


def provider_templates(env: str, kind: str) -> tuple[Template, ...]:
    """Ways a provider key is pasted: .env, shell, chat, JSON, code, logs, Chinese chat."""
    s = Slot(kind)
    return (
        lambda r: ("# .env\nDEBUG=false\nPORT=8080\n", env, "=", s, "\nLOG_LEVEL=info\n"),
        lambda r: ("$ export ", env, "=", s, "\n$ python run.py\nstarting worker…\n"),
        lambda r: ("hey, can you check why this fails? I'm using key ", s, " and get a 401"),
        lambda r: ('{\n  "name": "bot",\n  "', env.lower(), '": "', s, '",\n  "retries": 3\n}'),
        lambda r: ('client = Client(api_key="', s, '", timeout=30)\n'),
        lambda r: (ts(r), " WARN auth failed for credential ", s, " (status=401)\n"),
        lambda r: ("我把key贴这里了：", s, "，帮我看看为什么一直报错"),
        lambda r: ("```yaml\nservice:\n  ", env.lower(), ": ", s, "\n  region: eu-west-1\n```"),
        lambda r: ("Here's the token: `", s, "`. Rotate it after the demo."),
        lambda r: ('headers = {"X-Api-Key": "', s, '"}\n'),
    )


TEMPLATES: dict[str, tuple[Template, ...]] = {
    "openai-key": provider_templates("OPENAI_API_KEY", "openai-key"),
    "anthropic-key": provider_templates("ANTHROPIC_API_KEY", "anthropic-key"),
    "github-token": (
        *provider_templates("GITHUB_TOKEN", "github-token"),
        lambda r: ("git clone https://", Slot("github-token"), "@github.com/acme/api.git\n"),
        lambda r: ('curl -H "Authorization: token ', Slot("github-token"), '" api.github.com\n'),
    ),
    "gitlab-token": provider_templates("GITLAB_TOKEN", "gitlab-token"),
    "slack-token": provider_templates("SLACK_BOT_TOKEN", "slack-token"),
    "slack-webhook": (
        lambda r: ("SLACK_WEBHOOK_URL=", Slot("slack-webhook"), "\n"),
        lambda r: ('curl -X POST -d \'{"text":"deploy ok"}\' ', Slot("slack-webhook"), "\n"),
        lambda r: ("notify:\n  slack: ", Slot("slack-webhook"), "\n"),
        lambda r: ("告警会发到这个webhook：", Slot("slack-webhook"), " 记得别外传"),
        lambda r: ("Posting to ", Slot("slack-webhook"), " failed: 404 no_service"),
    ),
    "google-api-key": provider_templates("GOOGLE_API_KEY", "google-api-key"),
    "google-oauth": provider_templates("GOOGLE_CLIENT_SECRET", "google-oauth"),
    "stripe-key": provider_templates("STRIPE_SECRET_KEY", "stripe-key"),
    "twilio-key": provider_templates("TWILIO_API_KEY", "twilio-key"),
    "sendgrid-key": provider_templates("SENDGRID_API_KEY", "sendgrid-key"),
    "npm-token": (
        *provider_templates("NPM_TOKEN", "npm-token"),
        lambda r: ("//registry.npmjs.org/:_authToken=", Slot("npm-token"), "\n"),
    ),
    "pypi-token": (
        *provider_templates("TWINE_PASSWORD", "pypi-token"),
        lambda r: ("[pypi]\nusername = __token__\npassword = ", Slot("pypi-token"), "\n"),
    ),
    "huggingface-token": provider_templates("HF_TOKEN", "huggingface-token"),
    "aws-access-key-id": (
        lambda r: (
            "[default]\naws_access_key_id = ",
            Slot("aws-access-key-id"),
            "\nregion = us-east-1\n",
        ),
        lambda r: ("export AWS_ACCESS_KEY_ID=", Slot("aws-access-key-id"), "\n"),
        lambda r: ("the access key ", Slot("aws-access-key-id"), " was used from an unknown IP"),
        lambda r: ('{"AccessKeyId": "', Slot("aws-access-key-id"), '", "Status": "Active"}'),
        lambda r: ("用这个 access key：", Slot("aws-access-key-id"), " 登录控制台"),
    ),
    "aws-secret-key": (
        lambda r: (
            "[default]\naws_access_key_id = ",
            Slot("aws-access-key-id"),
            "\naws_secret_access_key = ",
            Slot("aws-secret-key"),
            "\n",
        ),
        lambda r: ("export AWS_SECRET_ACCESS_KEY=", Slot("aws-secret-key"), "\n"),
        lambda r: (
            "Access key ID,Secret access key\n",
            Slot("aws-access-key-id"),
            ",",
            Slot("aws-secret-key"),
            "\n",
        ),
        lambda r: (
            '{"AccessKey": {"AccessKeyId": "',
            Slot("aws-access-key-id"),
            '", "SecretAccessKey": "',
            Slot("aws-secret-key"),
            '"}}',
        ),
        lambda r: ("AWS Secret Access Key [None]: ", Slot("aws-secret-key"), "\n"),
    ),
    "jwt": (
        lambda r: ("Authorization: Bearer ", Slot("jwt"), "\n"),
        lambda r: ("the session cookie is token=", Slot("jwt"), "; Path=/; HttpOnly"),
        lambda r: ('{"access_token": "', Slot("jwt"), '", "expires_in": 3600}'),
        lambda r: ("decode this for me: ", Slot("jwt"), " — why is exp in the past?"),
        lambda r: (ts(r), " DEBUG request id_token=", Slot("jwt"), "\n"),
        lambda r: ("这个JWT好像过期了 ", Slot("jwt"), " 你帮我解一下"),
    ),
    "private-key": (
        lambda r: ("$ cat ~/.ssh/id_deploy\n", Slot("private-key"), "\n$ "),
        lambda r: ("I generated this key, is it OK?\n```\n", Slot("private-key"), "\n```"),
        lambda r: (
            '{\n  "type": "service_account",\n  "project_id": "acme-prod",\n  "private_key": "',
            Slot("private-key", "json"),
            '\\n",\n  "client_email": "bot@acme.iam.example"\n}',
        ),
        lambda r: ("tls:\n  key: |\n    ", Slot("private-key", "yaml"), "\n  cert: cert.pem\n"),
        lambda r: ("私钥在这里，别发到群里：\n", Slot("private-key"), "\n"),
        lambda r: ("it got cut off when I pasted:\n", Slot("private-key", "cut"), "\n\nany idea?"),
    ),
    "connection-password": (
        lambda r: (
            "DATABASE_URL=postgres://",
            r.choice(USERS),
            ":",
            Slot("connection-password", "url"),
            "@",
            r.choice(HOSTS),
            ":5432/app\n",
        ),
        lambda r: (
            'engine = create_engine("postgresql+psycopg://',
            r.choice(USERS),
            ":",
            Slot("connection-password", "url"),
            "@",
            r.choice(HOSTS),
            '/analytics")\n',
        ),
        lambda r: ("mysql://root:", Slot("connection-password", "url"), "@127.0.0.1:3306/shop"),
        lambda r: (
            "MONGO_URI=mongodb+srv://",
            r.choice(USERS),
            ":",
            Slot("connection-password", "url"),
            "@cluster0.ab1cd.mongodb.net/?retryWrites=true\n",
        ),
        lambda r: ("REDIS_URL=redis://:", Slot("connection-password", "url"), "@cache:6379/0\n"),
        lambda r: ("broker_url = 'amqp://celery:", Slot("connection-password", "url"), "@mq//'\n"),
        lambda r: (
            "连上了 postgres://",
            r.choice(USERS),
            ":",
            Slot("connection-password", "url"),
            "@",
            r.choice(HOSTS),
            "/app 但是很慢",
        ),
        lambda r: (
            ts(r),
            " ERROR could not connect to mysql://",
            r.choice(USERS),
            ":",
            Slot("connection-password", "url"),
            "@",
            r.choice(HOSTS),
            ":3306/x\n",
        ),
    ),
    "bearer-token": (
        lambda r: (
            'curl -H "Authorization: Bearer ',
            Slot("bearer-token"),
            '" https://api.acme.dev/v1/me',
        ),
        lambda r: (
            "GET /v2/items HTTP/1.1\nHost: api.acme.dev\nAuthorization: Bearer ",
            Slot("bearer-token"),
            "\nAccept: */*\n",
        ),
        lambda r: ('headers = {"Authorization": "Bearer ', Slot("bearer-token"), '"}\n'),
        lambda r: (
            ts(r),
            " DEBUG outgoing request authorization=Bearer ",
            Slot("bearer-token"),
            "\n",
        ),
        lambda r: ("请求头里带了 Authorization: Bearer ", Slot("bearer-token"), " 还是401"),
    ),
    "basic-auth": (
        lambda r: ("GET /metrics HTTP/1.1\nAuthorization: Basic ", Slot("basic-auth"), "\n"),
        lambda r: (
            "curl -H 'Authorization: Basic ",
            Slot("basic-auth"),
            "' http://grafana:3000/api",
        ),
        lambda r: ('proxy_set_header Authorization "Basic ', Slot("basic-auth"), '";\n'),
    ),
    "password": (
        lambda r: (
            "DB_HOST=",
            r.choice(HOSTS),
            "\nDB_USER=app\nDB_PASSWORD=",
            Slot("password"),
            "\n",
        ),
        lambda r: ("DB_HOST=localhost\nDB_PASSWORD=", Slot("password", "word"), "\nDB_PORT=5432\n"),
        lambda r: ("database:\n  user: app\n  password: ", Slot("password"), "\n  pool: 5\n"),
        lambda r: ("smtp:\n  host: mail.acme.dev\n  password: ", Slot("password", "word"), "\n"),
        lambda r: ('{"username": "', r.choice(USERS), '", "password": "', Slot("password"), '"}'),
        lambda r: (
            'conn = psycopg.connect(host="db", user="app", password="',
            Slot("password"),
            '")\n',
        ),
        lambda r: ("my password is ", Slot("password"), " lol don't tell anyone"),
        lambda r: ("my password is ", Slot("password", "word"), "."),
        lambda r: ("the wifi password: ", Slot("password"), "\n"),
        lambda r: ("pw for the staging server is ", Slot("password"), ", user is deploy"),
        lambda r: ("The password for ", r.choice(HOSTS), ' is "', Slot("password"), '".'),
        lambda r: ("wifi密码是", Slot("password"), "，别告诉别人"),
        lambda r: ("服务器的root密码：", Slot("password"), "\n"),
        lambda r: ("curl -u admin:", Slot("password"), " https://jenkins.acme.dev/api/json"),
        lambda r: ("$ mysql -u root -p", Slot("password"), " shop < dump.sql\n"),
        lambda r: ("$ vault login -method=userpass username=ann password=", Slot("password"), "\n"),
        lambda r: ("PGPASSWORD=", Slot("password"), " psql -h db -U app\n"),
        lambda r: ("Server=sql01;Database=shop;User Id=app;Password=", Slot("password"), ";\n"),
        lambda r: ("$ ./deploy --password ", Slot("password"), " --env prod\n"),
        lambda r: ("SMTP_PASS=", Slot("password"), "\n"),
        lambda r: ("machine api.acme.dev\n  login ann\n  password ", Slot("password"), "\n"),
        lambda r: ('r = requests.get(url, auth=("ann", "', Slot("password"), '"))\n'),
        lambda r: ("<datasource>\n  <password>", Slot("password"), "</password>\n</datasource>"),
        lambda r: ("  :username => 'deploy',\n  :password => '", Slot("password"), "',\n"),
        lambda r: ("サーバーのパスワードは ", Slot("password"), " です"),
        lambda r: ("账号admin 密码", Slot("password", "strong"), " 登录后台"),
        lambda r: ("kind: Secret\nstringData:\n  password: ", Slot("password"), "\n"),
        lambda r: (
            "services:\n  db:\n    environment:\n      - POSTGRES_PASSWORD=",
            Slot("password"),
            "\n",
        ),
        lambda r: ('cfg := Config{\n\tUser:     "app",\n\tPassword: "', Slot("password"), '",\n}'),
        lambda r: ("$db_password = '", Slot("password"), "';\n"),
        lambda r: (
            "jdbc:mysql://db:3306/shop?user=app&password=",
            Slot("password", "url"),
            "&useSSL=true",
        ),
        lambda r: ("spring.datasource.password=", Slot("password"), "\n"),
        lambda r: ("fyi the admin password is now ", Slot("password"), "\n"),
        lambda r: ("login: admin / password: ", Slot("password"), "\n"),
        lambda r: ('resource "aws_db_instance" "db" {\n  password = "', Slot("password"), '"\n}'),
        lambda r: ("[client]\nuser = root\npassword = ", Slot("password"), "\n"),
    ),
    "generic-secret": (
        lambda r: ("SECRET_KEY=", Slot("generic-secret"), "\nDEBUG=False\n"),
        lambda r: ('api_key = "', Slot("generic-secret"), '"\n'),
        lambda r: ("const apiKey = '", Slot("generic-secret"), "';\n"),
        lambda r: ('{"client_id": "web", "client_secret": "', Slot("generic-secret"), '"}'),
        lambda r: ("auth:\n  webhook_secret: ", Slot("generic-secret"), "\n"),
        lambda r: ("JWT_SECRET=", Slot("generic-secret", "hex64"), "\n"),
        lambda r: ("x-api-key: ", Slot("generic-secret"), "\n"),
        lambda r: ("//registry.npmjs.org/:_authToken=", Slot("generic-secret", "uuid"), "\n"),
        lambda r: ("ENCRYPTION_KEY=", Slot("generic-secret", "hex64"), "\n"),
        lambda r: ('access_token: "', Slot("generic-secret"), '"\nrefresh_token: null\n'),
        lambda r: ("我的 api_key: ", Slot("generic-secret"), " 你先用着"),
        lambda r: ("$ ./sync --token ", Slot("generic-secret"), " --dry-run\n"),
        lambda r: (
            "DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=",
            Slot("generic-secret", "b64long"),
            ";EndpointSuffix=core.windows.net",
        ),
        lambda r: ('{"apiKey": "', Slot("generic-secret"), '", "region": "eu"}'),
        lambda r: ("client.api_key = '", Slot("generic-secret"), "'\n"),
        lambda r: ("<apiKey>", Slot("generic-secret"), "</apiKey>"),
        lambda r: ("export AWS_SESSION_TOKEN=", Slot("generic-secret", "b64long"), "\n"),
    ),
}


def wrap(rng: random.Random, parts: Parts) -> Parts:
    """Put a snippet in a chat turn, a Markdown note or a Chinese message — or leave it bare."""
    choice = rng.randint(0, 5)
    if choice == 0:
        return ("User: ok here's what I have\n", *parts, "\nAssistant: Thanks — looking at it now.")
    if choice == 1:
        return (f"## Notes {rng.randint(1, 28)} Nov\n\n- debugging the deploy\n- ", *parts, "\n")
    if choice == 2:
        return ("同事发来的配置如下：\n", *parts, "\n我们明天再看。")
    return parts


def assemble(name: str, rng: random.Random, parts: Parts) -> SecretCase:
    pieces: list[str] = []
    secrets: list[LabelledSecret] = []
    offset = 0
    for part in parts:
        if isinstance(part, Slot):
            value = make_value(rng, part)
            secrets.append(LabelledSecret(part.kind, offset, offset + len(value)))
            part = value
        pieces.append(part)
        offset += len(part)
    return SecretCase(name, "".join(pieces), tuple(secrets))


# ---------------------------------------------------------------------------------------------
# Hard negatives: high-entropy strings, look-alikes and prose about passwords.


def sha1(rng: random.Random) -> str:
    return rand(rng, HEX, 40)


def b64blob(rng: random.Random, n: int) -> str:
    return base64.b64encode(bytes(rng.getrandbits(8) for _ in range(n))).decode()


def a_uuid(rng: random.Random) -> str:
    return str(uuid.UUID(int=rng.getrandbits(128), version=4))


NEGATIVES: dict[str, Callable[[random.Random], str]] = {
    "git-sha": lambda r: (
        f"commit {sha1(r)}\nAuthor: Ann <ann@example.org>\n\n    fix token refresh\n\n"
        f"Merge pull request #{r.randint(1, 999)} from acme/fix ({sha1(r)[:7]})"
    ),
    "git-log": lambda r: "\n".join(f"{sha1(r)[:7]} {r.choice(WORDS)} tweak" for _ in range(5)),
    "sha256": lambda r: f"{rand(r, HEX, 64)}  dist/memstrata-0.1.0.tar.gz",
    "docker-digest": lambda r: f"image: ghcr.io/acme/api@sha256:{rand(r, HEX, 64)}",
    "uuid": lambda r: f'{{"id": "{a_uuid(r)}", "request_id": "{a_uuid(r)}", "ok": true}}',
    "uuid-log": lambda r: f"{ts(r)} INFO trace_id={a_uuid(r)} span={rand(r, HEX, 16)} done",
    "data-uri": lambda r: f"![diagram](data:image/png;base64,{b64blob(r, r.randint(300, 1500))})",
    "npm-integrity": lambda r: (
        f'"node_modules/left-pad": {{\n  "version": "1.3.0",\n  "integrity": '
        f'"sha512-{b64blob(r, 64)}"\n}}'
    ),
    "k8s-names": lambda r: "\n".join(
        f"api-server-{rand(r, HEX, 10)}-{rand(r, string.ascii_lowercase + string.digits, 5)}"
        f"   1/1   Running   0   {r.randint(1, 90)}m"
        for _ in range(3)
    ),
    "k8s-secret-ref": lambda r: (
        "env:\n  - name: DB_PASSWORD\n    valueFrom:\n      secretKeyRef:\n"
        f"        name: db-{r.choice(WORDS)}-credentials\n        key: password\n"
        "kind: Secret\nsecretName: tls-" + r.choice(WORDS)
    ),
    "code-identifiers": lambda r: r.choice(
        (
            "def reset_password(user: User, token: str) -> None:\n    password_hash = hash(token)",
            'password = getpass.getpass("Password: ")\ntoken = get_token()',
            'api_key = os.environ["OPENAI_API_KEY"]\nclient = OpenAI(api_key=api_key)',
            "const token = await getToken();\nconst apiKey = process.env.API_KEY;",
            'if password != confirm_password:\n    raise ValueError("passwords differ")',
            "class Login(BaseModel):\n    username: str\n    password: SecretStr\n"
            "    token: Optional[str] = None",
            'SECRET_KEY = env("DJANGO_SECRET_KEY")\nself.token = token',
            "tokenizer = AutoTokenizer.from_pretrained(name)\nmax_tokens = 4096",
        )
    ),
    "llm-special-tokens": lambda r: (
        'eos_token = "</s>"\npad_token: "<pad>"\nbos_token: "<|begin_of_text|>"\n'
        f"bos_token_id: 1\nmax_new_tokens: {r.randint(64, 4096)}"
    ),
    "placeholders": lambda r: r.choice(
        (
            "DB_PASSWORD=${DB_PASSWORD}\nAPI_KEY=<your-api-key>\nSECRET_KEY=changeme",
            'OPENAI_API_KEY=your-openai-key-here\nPASSWORD=\nTOKEN=""',
            'token: ${{ secrets.GITHUB_TOKEN }}\npassword: "{{ vault_db_password }}"',
            'curl -H "Authorization: Bearer $OPENAI_API_KEY" https://api.example.com',
            "Authorization: Bearer <token>\nAuthorization: Basic <base64>",
            "postgres://app:${DB_PASSWORD}@db:5432/app\npostgres://user:<password>@host/db",
            '"password": null,\n"api_key": "",\n"token": "********"',
        )
    ),
    "password-hashes": lambda r: (
        f'hashed_password: "$2b$12${rand(r, B64URL.replace("-", "."), 53)}"\n'
        f'password_hash = "$argon2id$v=19$m=65536,t=3,p=4${rand(r, B64, 22)}${rand(r, B64, 43)}"'
    ),
    "pagination-token": lambda r: (
        f'{{"items": [], "next_page_token": "{rand(r, B64URL, 40)}", '
        f'"nextToken": "{rand(r, B64URL, 44)}"}}'
    ),
    "urls-without-password": lambda r: r.choice(
        (
            "postgres://localhost:5432/app",
            f"postgresql://app@{r.choice(HOSTS)}/app",
            "redis://redis:6379/0 and mongodb://mongo1:27017,mongo2:27017/?replicaSet=rs0",
            f"https://{rand(r, HEX, 32)}@o{r.randint(1000, 9999)}.ingest.sentry.io/42",
            "see https://example.com:8443/api/v1/users?page=2#top",
            "git clone git@github.com:acme/api.git",
        )
    ),
    "public-keys": lambda r: r.choice(
        (
            f"-----BEGIN PUBLIC KEY-----\n{b64blob(r, 270)}\n-----END PUBLIC KEY-----",
            f"-----BEGIN CERTIFICATE-----\n{b64blob(r, 600)}\n-----END CERTIFICATE-----",
            f"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{rand(r, B64, 43)} ann@laptop",
            f"ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQ{rand(r, B64, 300)} deploy@ci",
        )
    ),
    "publishable-ids": lambda r: (
        f"stripe publishable key pk_live_{rand(r, ALNUM, 24)} is fine in the browser; "
        f"account AC{rand(r, HEX, 32)}, GA id G-{rand(r, UPPER32, 10)}, "
        f"arn:aws:iam::{r.randint(10**11, 10**12 - 1)}:role/deploy"
    ),
    "prose-about-passwords": lambda r: r.choice(
        (
            "Please reset your password before Friday.",
            "The password field is required.",
            "the password policy requires 12 chars and a symbol",
            "Password: must be at least 12 characters",
            "The password is stored as a bcrypt hash.",
            "I forgot my password again, can you send a reset link?",
            "Your password is too weak.",
            "the password is incorrect.",
            "What's the wifi password?",
            "The password is case-sensitive.",
            "My password is the same as my email password, which is bad.",
            "Password: see 1Password vault entry 'prod-db'",
            "Change the password field to type=password so it is masked.",
            "use password authentication instead of keys for now",
            "The token expires after 15 minutes; refresh it with the refresh token.",
            "Rotate the API key every 90 days and never commit secrets.",
        )
    ),
    "chinese-prose": lambda r: r.choice(
        (
            "请重置你的密码，然后重新登录。",
            "密码长度至少为12位，必须包含数字。",
            "忘记密码？点击这里重置。",
            "密码是必填项。",
            "密码：请联系管理员获取",
            "我们的密码策略要求每90天更换一次。",
            "这个接口的token会在15分钟后过期。",
        )
    ),
    "versions-and-paths": lambda r: (
        f"numpy=={r.randint(1, 2)}.{r.randint(0, 30)}.{r.randint(0, 9)} node v20.11.1 "
        f"memstrata 0.1.0rc{r.randint(1, 9)}+g{sha1(r)[:8]}\n"
        "~/.ssh/id_ed25519  ~/.aws/credentials  /etc/ssl/private/server.key  "
        "C:\\Users\\ann\\AppData\\Roaming\\gh\\hosts.yml  secrets/prod/db-password.txt"
    ),
    "markdown": lambda r: (
        "## Password reset flow\n\n| field | type | note |\n|---|---|---|\n"
        "| password | string | write-only |\n| token | string | one-time, 15 min |\n\n"
        "See [the auth docs](https://docs.example.com/auth#tokens)."
    ),
    "high-entropy-misc": lambda r: (
        f'ETag: "{rand(r, HEX, 32)}"\nyoutube.com/watch?v={rand(r, B64URL, 11)} '
        f"ulid {rand(r, CROCKFORD32, 26)} cid bafy{rand(r, BASE32_LOWER, 55)} "
        f"nonce={b64blob(r, 30)}"
    ),
    "jwt-lookalikes": lambda r: (
        f"cursor=eyJ{rand(r, B64URL, 30)} "
        f"{b64url(json.dumps({'page': r.randint(1, 9), 'typ': 'cursor'}).encode())}."
        f"{b64url(b'{}')}.{rand(r, B64URL, 20)} and model.onnx.data.bin"
    ),
    "log-metrics": lambda r: (
        f"{ts(r)} INFO user=ann action=login status=ok duration_ms={r.randint(1, 999)} "
        f"prompt_tokens={r.randint(10, 9000)} completion_tokens={r.randint(1, 900)} "
        f"token_count={r.randint(1, 9000)} password_reset=false key=user:{r.randint(1, 99)}"
    ),
    "code-misc": lambda r: r.choice(
        (
            'password = input("Password: ")',
            "const password = req.body.password;",
            "UPDATE users SET password = ? WHERE id = ?",
            "  password VARCHAR(255) NOT NULL,",
            "token = tokens[i]",
            'api_key: str = Field(..., description="The provider key")',
            '"password": {"type": "string", "minLength": 12}',
            "if (password.length < 12) return false;",
            "def check(password: str) -> bool:",
            "pw = hashlib.sha256(pw.encode()).hexdigest()",
            "password=$(cat /run/secrets/db)",
            "SECRET_KEY = get_random_secret_key()",
            "key = cache_key(user.id, 'profile')",
            "Authorization: Bearer {token}",
            'fmt = "Error loading SSO Token: {error_msg}"',
            "task_token: TaskToken,\nprivate_key: PKCS7PrivateKeyTypes,",
            'user_pass = "%s:%s" % (user, password)',
            'print(f"password={password!r}")',
        )
    ),
    "config-misc": lambda r: r.choice(
        (
            "docker login -u ann --password-stdin",
            "AUTH_TOKEN_TTL=3600\nauth_token_url: https://login.acme.dev/oauth/token",
            "pwd: /home/ann/src",
            "password: ********\napi_key: [hidden]",
            f'"ClientToken": "{a_uuid(r)}",\n"nextForwardToken": "f/{rand(r, string.digits, 56)}"',
            '"lastModifiedSecret": 1556311319.069,',
            "Token:                      FG_DEFAULT,",
            '    "passwd:uid",\n    "passwd:shell",',
            "--token-validity-units AccessToken=minutes,IdToken=minutes",
            'ACCESS_KEY = "AWSAccessKeyId"',
            f'"PurchaseToken": "eyJ{rand(r, B64URL, 24)}..."',
            '"Resource": "arn:aws:secretsmanager:*:*:secret:rds-db-credentials/*"',
            "https://hooks.slack.com/services/T000/B000/XXX",
        )
    ),
    "prose-misc": lambda r: r.choice(
        (
            "Use `git rev-parse HEAD` to get the commit id.",
            "the token bucket algorithm refills 10 tokens per second",
            "the API key is sent in the X-Api-Key header",
            "api_key: the key you created in the dashboard",
            "Set the password: run `passwd` as root",
            "password123 is a terrible password",
            "Step 3: enter the PIN code shown on the device",
            "client_secret: your client secret",
            "secret sauce: love",
            "The secret: nobody reads the docs.",
            "The key: consistency matters more than speed.",
            "my password is too long to remember",
            "Her PIN is the same as her birthday.",
            "bearer token authentication",
            "Password: Required. Minimum length: 12.",
            "password1 and password2 must match",
            "请输入密码：",
            "the token is valid for 15 minutes",
            "Authorization: Bearer header carries the Authorization token",
        )
    ),
    "aws-docs": lambda r: (
        "Access keys that start with AKIA are long-term; ASIA keys are temporary. Put "
        "aws_secret_access_key in ~/.aws/credentials, never in code."
    ),
}


def build_cases(seed: int = SEED) -> tuple[SecretCase, ...]:
    """Every labelled case: ``CASES_FOR_KIND`` per secret kind, then the hard negatives."""
    rng = random.Random(seed)
    cases: list[SecretCase] = []
    for kind, templates in TEMPLATES.items():
        for i in range(CASES_FOR_KIND.get(kind, CASES_PER_KIND)):
            index = i % len(templates)
            parts = wrap(rng, templates[index](rng))
            cases.append(assemble(f"{kind}/{index}", rng, parts))
    for category, make in NEGATIVES.items():
        for _ in range(CASES_PER_NEGATIVE):
            text = "".join(str(part) for part in wrap(rng, (make(rng),)))
            cases.append(SecretCase(f"negative/{category}", text, ()))
    return tuple(cases)


# ---------------------------------------------------------------------------------------------
# Scoring, shared by the measurement test and benchmarks/redaction.py.


@dataclass(frozen=True, slots=True)
class KindScore:
    kind: str
    secrets: int  # labelled secrets of this kind
    found: int  # ... whose whole span is inside findings
    leaked: int  # ... whose value is still somewhere in the redacted text
    findings: int  # findings typed as this kind
    false_findings: int  # ... that overlap no labelled secret


@dataclass(frozen=True, slots=True)
class Scores:
    kinds: tuple[KindScore, ...]
    negatives: int  # cases with no secret
    flagged_negatives: int  # ... in which something was redacted
    typed_right: int  # found secrets whose finding carries the labelled kind

    def total(self, kinds: frozenset[str] | None = None) -> KindScore:
        rows = [k for k in self.kinds if kinds is None or k.kind in kinds]
        return KindScore(
            "overall" if kinds is None else "prefixed",
            sum(k.secrets for k in rows),
            sum(k.found for k in rows),
            sum(k.leaked for k in rows),
            sum(k.findings for k in rows),
            sum(k.false_findings for k in rows),
        )

    @property
    def recall(self) -> float:
        total = self.total()
        return total.found / total.secrets

    @property
    def prefixed_recall(self) -> float:
        total = self.total(PREFIXED_KINDS)
        return total.found / total.secrets

    @property
    def precision(self) -> float:
        total = self.total()
        return 1 - total.false_findings / total.findings

    @property
    def leaked(self) -> int:
        return self.total().leaked


def score(cases: tuple[SecretCase, ...], redact: Callable[[str], Any]) -> Scores:
    """Run ``redact`` (``redact_secrets``) on every case and count what it found and missed."""
    counts: dict[str, list[int]] = {}  # kind -> [secrets, found, leaked, findings, false]
    flagged = typed_right = 0
    for case in cases:
        result = redact(case.text)
        for secret in case.secrets:
            row = counts.setdefault(secret.kind, [0, 0, 0, 0, 0])
            row[0] += 1
            covering = [f for f in result.findings if f.start < secret.end and secret.start < f.end]
            if covers(covering, secret.start, secret.end):
                row[1] += 1
                typed_right += any(f.kind == secret.kind for f in covering)
            row[2] += case.text[secret.start : secret.end] in result.text
        for finding in result.findings:
            row = counts.setdefault(finding.kind, [0, 0, 0, 0, 0])
            row[3] += 1
            row[4] += not any(s.start < finding.end and finding.start < s.end for s in case.secrets)
        flagged += not case.secrets and bool(result.findings)
    kinds = tuple(KindScore(kind, *row) for kind, row in sorted(counts.items()))
    negatives = sum(not case.secrets for case in cases)
    return Scores(kinds, negatives, flagged, typed_right)


def covers(findings: list[Any], start: int, end: int) -> bool:
    """Do the (sorted, disjoint) findings leave no byte of ``start:end`` uncovered?"""
    cursor = start
    for finding in sorted(findings, key=lambda f: f.start):
        if finding.start > cursor:
            return False
        cursor = max(cursor, finding.end)
    return cursor >= end
