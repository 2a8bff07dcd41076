"""Mail: composing mails into the outbox (``compose``) and delivering it (``outbox``)."""
