"""Certificates of uniqueness: ``prove`` writes them (``prover``), ``checker`` verifies them on its own.

``checker`` and ``drat`` import nothing but the standard library and each other, so that they can be read
and audited alone; the format they check is written out in docs/certificates.md.
"""
