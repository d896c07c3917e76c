"""The JSON API's shared plumbing: one error shape, strict JSON fields, one pagination shape, one
snapshot per game response, the schema's error responses. Views live with their apps
(``games/api.py``, ``profiles/api.py``, ``trust/api.py``, ``together/api.py``, ``competition/api.py``,
``reach/api.py``); everything here applies to every DRF view under /api/."""
