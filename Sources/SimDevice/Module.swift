// SimDevice: see DESIGN.md. Work in progress.
