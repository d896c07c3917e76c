"""Live updates: open pages hear about changes through a Server-Sent Events stream (docs/live-updates.md).

- ``live.publish``: what writes call (after commit) to say "game N is at version V", "user U's games
  changed" or "game N has new chat"; one Redis PUBLISH round trip, from any process.
- ``live.stream``: the ASGI endpoint ``/live/stream/`` holding the streams; it never touches the
  database (a signed grant in the URL says which channels a page may follow).
- ``live.grants``: those signed grants, made by the pages that checked the viewer's access.
"""
