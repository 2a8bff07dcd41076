"""Time: clock policies, quiet hours, reminders, timeouts, vacation, digest, calendar feed,
and ``scheduler.tick(now)`` that runs them (see DESIGN.md, "Time")."""
