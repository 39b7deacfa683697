"""The pure Red Rising rules engine: cards, state, events, rules, scoring.

Standard library only; no I/O, clock or threads. Randomness comes from an injected
``random.Random``.
"""
