"""What a run reports: aggregate (paper metrics overall and per metadata value), signature (the
versioned string stored with every score) and table (the text table and summary document)."""
