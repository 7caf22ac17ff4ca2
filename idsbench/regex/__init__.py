"""Regular expressions from untrusted IDS documents: dotnet (which xs:pattern values .NET's Regex
accepts, and their Python translation) and safe (matching in bounded time, under a work budget)."""
