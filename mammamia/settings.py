"""Settings for mammamia, all from the environment (12-factor).

Defaults are safe for production: DEBUG is off, SECRET_KEY must be given when
it is off, cookies are secure and HSTS is on. ``make run`` and ``make test``
set the few variables a developer machine needs (see ``mammamia/devservices.py``).
"""

import datetime as dt
from pathlib import Path
from urllib.parse import unquote, urlsplit

import environ
from celery.schedules import crontab
from django.utils.csp import CSP
from django.utils.translation import gettext_lazy as _

from games.installed import GAME_APPS
from live.config import live_redis_url
from mammamia.cache import session_engine_for

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()

DEBUG = env.bool("DEBUG", default=False)
SECRET_KEY = env.str("SECRET_KEY", default="")
if not SECRET_KEY:
    if not DEBUG:
        raise environ.ImproperlyConfigured("SECRET_KEY is required when DEBUG is off.")
    SECRET_KEY = "django-insecure-development-only-key"  # noqa: S105 - only ever with DEBUG on

ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost"] if DEBUG else [])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])
SITE_URL = env.str("SITE_URL", default="http://127.0.0.1:8000").rstrip("/")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "allauth",
    "allauth.account",
    "django_htmx",
    "rest_framework",
    "knox",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "accounts",
    "games",
    *GAME_APPS,  # each game is a folder: an app whose config is a games.registry.GameAppConfig
    "notifications",
    "clocks",
    "live",
    "competition",
    "trust",
    "together",
    "reach",
    "profiles",
]

MIDDLEWARE = [
    "api.errors.ApiErrorMiddleware",  # first: errors under /api/ as JSON, whoever raised them
    "django.middleware.security.SecurityMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "accounts.middleware.SessionMiddleware",  # Django's, but a late request never deletes a new sign-in's cookie
    "django.middleware.locale.LocaleMiddleware",
    "trust.middleware.TrustMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "accounts.middleware.UserPreferencesMiddleware",
    "games.tutorial.middleware.TutorialGuestMiddleware",  # after the preferences: the visitor's language stays
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

ROOT_URLCONF = "mammamia.urls"
WSGI_APPLICATION = "mammamia.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.template.context_processors.tz",
                "django.template.context_processors.csp",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "mammamia.context_processors.site",
            ],
            "libraries": {"fragments": "mammamia.fragments"},  # {% fixed %}: rendered once per language
        },
    },
]

# Database: DATABASE_URL, e.g. postgres://user:pass@host:5432/name. PostgreSQL only.
DATABASES = {"default": env.db_url("DATABASE_URL", default="postgres://postgres@127.0.0.1:5432/mammamia")}
# A Unix-socket directory may be given percent-encoded as the host: postgres://user@%2Fpath%2Fto%2Fdir/name
DATABASES["default"]["HOST"] = unquote(DATABASES["default"].get("HOST", ""))
DATABASES["default"].setdefault("CONN_MAX_AGE", env.int("DB_CONN_MAX_AGE", default=60))
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
# Behind PgBouncer in transaction mode (docs/deploying.md, "Several hosts") consecutive transactions of one
# connection may run on different server connections, so nothing may outlive a transaction: no server-side
# cursor (``QuerySet.iterator()`` would declare one WITH HOLD) and no prepared statement.
DB_TRANSACTION_POOLING = env.bool("DB_TRANSACTION_POOLING", default=False)
if DB_TRANSACTION_POOLING:
    DATABASES["default"]["DISABLE_SERVER_SIDE_CURSORS"] = True
    DATABASES["default"].setdefault("OPTIONS", {})["prepare_threshold"] = None
# Lets two test runs share one server without dropping each other's test database.
if env.str("TEST_DATABASE_NAME", default=""):
    DATABASES["default"]["TEST"] = {"NAME": env.str("TEST_DATABASE_NAME")}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

CACHES = {"default": env.cache_url("CACHE_URL", default="locmemcache://")}
if CACHES["default"]["BACKEND"] == "django.core.cache.backends.redis.RedisCache":
    # Django's own builds a Redis client per operation; this one keeps one per connection pool.
    CACHES["default"]["BACKEND"] = "mammamia.cache.RedisCache"
# Sessions from the cache only when every web process shares it (mammamia/cache.py says why).
SESSION_ENGINE = session_engine_for(CACHES["default"]["BACKEND"])

AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "account_login"
LOGIN_REDIRECT_URL = "home"

# django-allauth: e-mail + password, verified e-mail, login by e-mail or username.
ACCOUNT_LOGIN_METHODS = {"email", "username"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "username*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = env.str("ACCOUNT_EMAIL_VERIFICATION", default="mandatory")
ACCOUNT_CONFIRM_EMAIL_ON_GET = False
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_CHANGE_EMAIL = True
ACCOUNT_EMAIL_SUBJECT_PREFIX = "[mammamia] "
# Links in account e-mails use the scheme the site is served on.
ACCOUNT_DEFAULT_HTTP_PROTOCOL = SITE_URL.split("://", 1)[0] if "://" in SITE_URL else "https"
ACCOUNT_RATE_LIMITS = {
    "login": "30/m/ip",
    "login_failed": "10/m/ip,5/5m/key",
    "signup": "20/m/ip",
    "reset_password": "20/m/ip,5/m/key",
    "confirm_email": "1/3m/key",
}
ACCOUNT_ADAPTER = "trust.adapter.AccountAdapter"
# The owner's way in while a stranger exhausts the password limits: a one-time code sent by e-mail.
ACCOUNT_LOGIN_BY_CODE_ENABLED = True
# Behind a reverse proxy every request comes from the proxy's address: the client's is the
# N-th address from the right of X-Forwarded-For, N the number of proxies that append to it (docs/deploying.md).
ALLAUTH_TRUSTED_PROXY_COUNT = env.int("ALLAUTH_TRUSTED_PROXY_COUNT", default=0)

# API tokens (django-rest-knox, trust.ApiToken): stored hashed, one per device, lapsing after
# API_TOKEN_IDLE_DAYS without use, all deleted when the password changes.
KNOX_TOKEN_MODEL = "trust.ApiToken"
# knox's migrations create its own AuthToken table even when the model is swapped out for ours.
MIGRATION_MODULES = {"knox": None}
API_TOKEN_IDLE_DAYS = env.int("API_TOKEN_IDLE_DAYS", default=30)
API_TOKENS_PER_USER = env.int("API_TOKENS_PER_USER", default=20)
REST_KNOX = {
    "TOKEN_TTL": dt.timedelta(days=API_TOKEN_IDLE_DAYS),
    "AUTO_REFRESH": True,
    "MIN_REFRESH_INTERVAL": 60,
    "AUTH_HEADER_PREFIX": "Token",
}

# Internationalisation: four languages, times shown in each user's zone.
LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", "English"),
    ("ja", "日本語"),
    ("zh-hant", "繁體中文"),
    ("fr", "Français"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = "UTC"
USE_TZ = True
LANGUAGE_COOKIE_AGE = 60 * 60 * 24 * 365

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "mammamia.staticfiles.ManifestStaticFilesStorage"  # whitenoise's, each URL worked out once
    },
}

# E-mail: EMAIL_URL, e.g. smtp://user:pass@host:587/?tls=True; consolemail:// to print.
EMAIL_CONFIG = env.email_url("EMAIL_URL", default="smtp://127.0.0.1:1025")
_EMAIL_OPTION_NAMES = {
    "EMAIL_HOST": "host",
    "EMAIL_PORT": "port",
    "EMAIL_HOST_USER": "username",
    "EMAIL_HOST_PASSWORD": "password",
    "EMAIL_USE_TLS": "use_tls",
    "EMAIL_USE_SSL": "use_ssl",
    "EMAIL_FILE_PATH": "file_path",
}
MAILERS = {
    "default": {
        "BACKEND": EMAIL_CONFIG["EMAIL_BACKEND"],
        "OPTIONS": {
            option: EMAIL_CONFIG[name]
            for name, option in _EMAIL_OPTION_NAMES.items()
            if EMAIL_CONFIG.get(name) not in (None, "")
        }
        | {"timeout": env.int("EMAIL_TIMEOUT", default=20)}
        if EMAIL_CONFIG["EMAIL_BACKEND"].endswith("smtp.EmailBackend")
        else {},
    }
}
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="mammamia <noreply@mammamia.example>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
# Where `make run`'s mail catcher stores messages; /dev/mail/ lists them with DEBUG on.
DEV_MAIL_DIR = Path(env.str("DEV_MAIL_DIR", default=str(BASE_DIR / "var" / "mail")))

# Celery: the broker carries turn e-mails, reminders, deadlines and bot moves.
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default="redis://127.0.0.1:6379/0")
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=False)
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Celery's Django fixup closes every database connection before and after each task unless this is
# set; with it, it closes them only every 1000th task, and mammamia/celery.py drops them the way
# Django does after a request (broken, older than CONN_MAX_AGE, left in a transaction).
CELERY_DB_REUSE_MAX = 1000
CELERY_TASK_IGNORE_RESULT = True
# Every task sent (a move's bot turn, an e-mail or push/webhook delivery) retries a broker that is down this
# briefly, then gives up: the request is not held for long, and the row waits in PostgreSQL for the sweepers
# (the stalled-bot sweep, deliver_pending_notifications, deliver_pending_reach). One policy for every caller.
CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 2, "interval_start": 0, "interval_step": 0.2, "interval_max": 0.5}
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 3600}
CELERY_TIMEZONE = "UTC"
# Two queues, each with workers of its own (mammamia/workers.py starts both in `make run`, e2e and bench):
# "celery" for moves, bots, time-outs and e-mails; "outgoing" for calls to addresses users give us
# (webhooks, Web Push), so a slow receiver can never delay a move (docs/deploying.md, "Worker queues").
CELERY_TASK_DEFAULT_QUEUE = "celery"
CELERY_OUTGOING_QUEUE = "outgoing"
# Slow work that must never wait ahead of moves and e-mails: reviews of finished games (issue 28).
CELERY_SLOW_QUEUE = "slow"
CELERY_TASK_ROUTES = {
    "reach.tasks.*": {"queue": CELERY_OUTGOING_QUEUE},
    "games.tasks.review_finished_game": {"queue": CELERY_SLOW_QUEUE},
}
# A safety net for every task (the outgoing ones have tighter limits of their own, reach/tasks.py): past the
# soft limit the task gets SoftTimeLimitExceeded, past the hard one its worker process is replaced.
CELERY_TASK_SOFT_TIME_LIMIT = env.int("CELERY_TASK_SOFT_TIME_LIMIT", default=540)
CELERY_TASK_TIME_LIMIT = env.int("CELERY_TASK_TIME_LIMIT", default=600)
CELERY_BEAT_SCHEDULE = {
    # The safety net of the e-mail outbox: delivers rows whose on-commit queueing was lost.
    "deliver-outbox": {"task": "notifications.tasks.deliver_pending_notifications", "schedule": 30.0},
    # Reminders, timeouts (the platform's play_timeout_move) and stalled bots.
    "check-deadlines": {"task": "notifications.tasks.check_deadlines", "schedule": 60.0},
    # Daily digests go at 08:00 in each user's zone; zones differ by quarter hours.
    "send-digests": {"task": "notifications.tasks.send_due_digests", "schedule": crontab(minute="*/15")},
    # Leagues whose sign-ups have closed get their games (competition.leagues.start_league).
    "start-leagues": {"task": "competition.tasks.start_due_leagues", "schedule": 60.0},
    # Call-off proposals nobody declined in time end their games as abandoned (issue 17).
    "settle-call-offs": {"task": "together.tasks.settle_call_offs", "schedule": 300.0},
    # The push/webhook outbox's safety net and retries (reach/delivery.py).
    "deliver-reach": {"task": "reach.tasks.deliver_pending_reach", "schedule": 30.0},
    # Old tutorials and their guests are deleted (issue 27: a tutorial keeps nothing beyond its cookie).
    "sweep-tutorials": {"task": "games.tasks.sweep_tutorials", "schedule": 3600.0},
    # Seated games (a league's) past DEAL_WAIT_HOURS: the site draws the missing contributions, the game starts.
    "draw-due-contributions": {"task": "games.tasks.draw_due_contributions", "schedule": 300.0},
}

# Web Push (reach/push.py): a VAPID key pair, base64url (`python manage.py vapid_keys` makes one). Without
# both keys push is off and the settings page says so. The subject is a contact for push services.
VAPID_PUBLIC_KEY = env.str("VAPID_PUBLIC_KEY", default="")
VAPID_PRIVATE_KEY = env.str("VAPID_PRIVATE_KEY", default="")
VAPID_SUBJECT = env.str("VAPID_SUBJECT", default="mailto:webmaster@mammamia.example")

# Moves by e-mail reply (reach/replies.py): the domain whose mail reaches `manage.py receive_mail`
# (move+<token>@this-domain). Empty: turn e-mails carry no move codes and no Reply-To.
INBOUND_MAIL_DOMAIN = env.str("INBOUND_MAIL_DOMAIN", default="")

# Games.
BOT_MOVE_DELAY_SECONDS = env.float("BOT_MOVE_DELAY_SECONDS", default=1.0)
# Guided first games (issue 27, games.tutorial): a tutorial is deleted this many hours after it began, and the
# guest user a visitor without an account played it as (with any game against bots it started) after these days.
TUTORIAL_HOURS = env.int("TUTORIAL_HOURS", default=24)
# A game the site seats (a league's) waits this long for each player's page or client to add their bits to the deal
# before the site draws the missing ones and starts it (games.lobby.seated, docs/fairness.md).
DEAL_WAIT_HOURS = env.int("DEAL_WAIT_HOURS", default=48)
TUTORIAL_GUEST_DAYS = env.int("TUTORIAL_GUEST_DAYS", default=7)
# Iterations of a strong bot's search per decision (issue 28, games.engines.search). 0: each game's own budget,
# chosen so that a decision takes under 1 s of one core at p95 (bench/search_cpu.py); a smaller number makes
# strong bots cheaper and weaker. The bot thinks outside the game's lock, in the Celery worker.
BOT_STRONG_ITERATIONS = env.int("BOT_STRONG_ITERATIONS", default=0)
# Reviews of finished games (issue 28, games.history.review): on or off, search iterations per decision and
# decisions reviewed per seat (the first ones). A seat's review costs at most about DECISIONS x ITERATIONS
# playouts, on the slow queue; each review records its CPU (GameReview.cpu_ms).
GAME_REVIEWS = env.bool("GAME_REVIEWS", default=True)
GAME_REVIEW_ITERATIONS = env.int("GAME_REVIEW_ITERATIONS", default=40)
GAME_REVIEW_DECISIONS = env.int("GAME_REVIEW_DECISIONS", default=80)
# "Every time" e-mails: when a bot answers within this many seconds of a player's own move, their "your move"
# e-mail waits this long and is dropped if their open page has shown the new position meanwhile (issue 19).
TURN_EMAIL_HOLD_SECONDS = env.int("TURN_EMAIL_HOLD_SECONDS", default=120)
# Every "your move" and chat notification to a person (e-mail, push; not webhooks) waits this long in the outbox
# and is dropped if by then its reader is at the table: a page has shown them that position, or a live stream of
# that game is open in their browser (issue 34, docs/notifications.md). 0: no hold.
TURN_NOTIFY_HOLD_SECONDS = env.int("TURN_NOTIFY_HOLD_SECONDS", default=180)
# A private game's invitation link works until the game starts or for this many hours.
INVITE_LINK_HOURS = env.int("INVITE_LINK_HOURS", default=72)
GAME_POLL_SECONDS = env.int("GAME_POLL_SECONDS", default=5)
# Table chat: messages per user in any 60 seconds, over all games (issue 17).
CHAT_RATE_LIMIT_PER_MINUTE = env.int("CHAT_RATE_LIMIT_PER_MINUTE", default=10)
# Reports (of a player or a chat message) per reporter in any hour: a burst is refused (issue 29).
REPORT_RATE_LIMIT_PER_HOUR = env.int("REPORT_RATE_LIMIT_PER_HOUR", default=10)

# Live updates (the `live` app): open pages hold a Server-Sent Events stream, served by the ASGI
# server, and hear "game N is at version V" through Redis pub/sub from whichever process made the
# change. LIVE_UPDATES=0 goes back to polling every GAME_POLL_SECONDS.
LIVE_UPDATES = env.bool("LIVE_UPDATES", default=True)
LIVE_REDIS_URL = live_redis_url(
    env.str("LIVE_REDIS_URL", default=""), broker_url=CELERY_BROKER_URL, cache_url=env.str("CACHE_URL", default="")
)
# Seconds between keep-alive comments on an idle stream (under the proxy's read timeout).
LIVE_KEEPALIVE_SECONDS = env.float("LIVE_KEEPALIVE_SECONDS", default=20.0)
# Redis connections an ASGI process's streams share for their own commands (revocation, presence; live.aioredis).
LIVE_REDIS_MAX_CONNECTIONS = env.int("LIVE_REDIS_MAX_CONNECTIONS", default=20)
# Pub/sub channel names are global to a Redis server (not per database number): every site on one
# server gets its own prefix, by default from its database name.
LIVE_CHANNEL_PREFIX = env.str("LIVE_CHANNEL_PREFIX", default=f"mammamia.{DATABASES['default'].get('NAME', '')}.")
CHANNEL_LAYERS = {
    "default": {
        "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
        "CONFIG": {"hosts": [{"address": LIVE_REDIS_URL}], "prefix": LIVE_CHANNEL_PREFIX},
    }
}
# Threads per ASGI web process serving the (sync, WSGI) site beside the streams (mammamia/asgi.py).
WEB_THREADS = env.int("WEB_THREADS", default=4)

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # First: its WWW-Authenticate header makes a missing or bad credential a 401 (with the session
        # class first DRF answers 403, as it has no header to offer).
        "trust.tokens.ApiTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    # JSON in and out only: a move is a nested object, which a form cannot carry. The parser refuses
    # NUL, lone surrogates, deep nesting and non-finite numbers with a 400 (api.parsers); only
    # POST /api/token/ also takes a form (trust.api).
    "DEFAULT_PARSER_CLASSES": ["api.parsers.SafeJSONParser"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_METADATA_CLASS": "trust.metadata.SafeMetadata",
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "EXCEPTION_HANDLER": "games.api_errors.exception_handler",
    "DEFAULT_SCHEMA_CLASS": "api.schema.ApiAutoSchema",
    "DEFAULT_PAGINATION_CLASS": None,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "mammamia API",
    "DESCRIPTION": (
        "Play Mamma Mia!, Konamon! and Marumiere by program: everything the site's pages offer. "
        "Authenticate with `Authorization: Token <key>` (from `POST /api/token/`) or the site's session. "
        'Every answer that is not a success is `{"error": code, "detail": message}` in your language; '
        'lists are `{"results": [...], "next": url|null, "previous": url|null}`.'
    ),
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    "ENUM_NAME_OVERRIDES": {
        "TimeLimitEnum": "games.models.TimeLimit",
        "BotLevelEnum": "games.models.BotLevel",
        "LeagueTimeLimitEnum": "competition.serializers.LEAGUE_TIME_LIMITS",
        "EventKindEnum": "reach.api.KIND_VALUES",
    },
}

# Security: safe by default, relaxed only by DEBUG.
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=not DEBUG)
SESSION_COOKIE_SECURE = env.bool("SESSION_COOKIE_SECURE", default=not DEBUG)
CSRF_COOKIE_SECURE = env.bool("CSRF_COOKIE_SECURE", default=not DEBUG)
LANGUAGE_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=0 if DEBUG else 60 * 60 * 24 * 365)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=True)
SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=not DEBUG)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF, CSP.NONCE],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
    "base-uri": [CSP.SELF],
}
# Where pages open their live-update stream: the path on the site's own address (a proxy sends it to the ASGI
# server, the pages to the WSGI one: docs/deploying.md), or the address of the ASGI server itself when it has one
# of its own (``make run`` with DEBUG=0 and the e2e stack serve the pages from granian and the streams from
# uvicorn on another port). The stream answers only the site's own origin (``SITE_URL``) across origins.
LIVE_STREAM_URL = env.str("LIVE_STREAM_URL", default="/live/stream/")
if LIVE_STREAM_URL.startswith(("http://", "https://")):
    _stream = urlsplit(LIVE_STREAM_URL)
    SECURE_CSP["connect-src"] = [CSP.SELF, f"{_stream.scheme}://{_stream.netloc}"]

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
    "loggers": {"django.db.backends": {"level": "INFO"}},
}

ADMINS_TITLE = _("mammamia administration")
