"""The table kit: pure presentation helpers the games' drawings (domain/games/<pkg>/drawing.py) share, with no
web in them: SVG pieces (svgkit), the HTML around them (layout), a label placer (placer), a game's glossary of
board terms (glossary), words in the page's language (words) and the hooks that speak it (speech)."""
