"""Research adapters: cardz games as OpenSpiel games (``cardz_core.adapters.openspiel``, extra
``openspiel``) and as Gymnasium environments (``cardz_core.adapters.gym``, extra ``gym``). What
both share (action ids, card-by-card chance, encodings, returns) is ``cardz_core.adapters.core``.
See docs/research.md."""
