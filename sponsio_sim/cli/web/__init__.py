"""`sponsio serve`'s page: the table in a browser.

``tables``: the table the browser keeps (a `sponsio table` session's
inputs) and the warm sessions it stands for; ``answers``: the questions the
page asks (odds for a hand as they sharpen, the session's odds and advice,
the narration), answered as the one-shot commands answer them; ``app``: the
routes; ``static/``: the page itself (plain HTML, CSS and JavaScript,
served from memory). The server's plumbing (access, bounds, worker threads,
streaming) is ``tabletop_mc.webserve``.
"""
