"""The benchmark suite (issue 9): ``make bench`` / ``python -m bench``.

Nothing here is imported by the site. ``bench.settings`` is the production
settings module plus one bench-only URL (the framework ceiling); everything
else drives the real site from outside, over HTTP on 127.0.0.1, or measures it
inside one Django process (queries, engines, the e-mail fan-out).
"""
