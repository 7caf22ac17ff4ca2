"""Everything the behavioural score takes from the rest of the library, in one place.

The hardened XML parser (untrusted predictions pass it before the IDS checker sees them) and the
bounded, .NET-compatible regular expressions of Stage 1 (for `xs:pattern` values that are not XSD
regular expressions, such as the published prompt's any-set pattern).
"""
from __future__ import annotations

from idsbench.regex.dotnet import compile_dotnet
from idsbench.regex.safe import compile_search
from idsbench.xmlparse import parse_xml

__all__ = ["compile_dotnet", "compile_search", "parse_xml"]
