"""What every game's analyses share: the PDF page machinery, the chart style, study directories, the report's assembly."""
