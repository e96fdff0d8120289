// Entitlements: see DESIGN.md. Work in progress.
