"""The diagnostic report as one self-contained HTML file (``checkpoints report``).

:mod:`~checkpoints.report.html.page_model` turns an evaluation, its comparison
report and the drill-down of every check-point into plain data;
:mod:`~checkpoints.report.html.page` embeds that data safely in a page whose
CSS and JavaScript (package data under ``static/``) draw the charts in the
browser, so the file needs no network and no library.
"""
