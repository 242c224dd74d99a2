"""`cardz serve`: play in a browser.

A local HTTP server (``server``) answers a small JSON API (docs/serve.md) and ships a front end
of plain HTML, CSS and JavaScript (``static/``). Each browser tab holds a session
(``session.Session``): its own compiled game, the game being played with its log, undo and
redo, or a log being replayed. Games come from the bundled rule sets and the files given on the
command line (``catalogue``); the server reads no other file and writes none.
"""
