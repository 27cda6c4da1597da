"""Adapters that turn the answers of privacy accountants into exactdp claims (exactdp-claims/1).

Each adapter imports its accountant lazily, so ``import exactdp`` never needs them. Pinned versions
(install them yourself; they are not dependencies of exactdp): see each module's ``PINNED``.
"""
