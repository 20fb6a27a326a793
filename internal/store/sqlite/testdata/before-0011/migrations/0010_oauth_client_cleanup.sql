-- The sweep deletes clients that hold no grant and no code, registered
-- before a cutoff, and deleting a client cascades to its codes and grants:
-- both look codes and grants up by client. Without these indexes every
-- deleted client scans both tables (30,000 clients deleted among 10,000
-- grants and codes: 70 s; with them 0.16 s).
CREATE INDEX oauth_grants_client ON oauth_grants (client_id);
CREATE INDEX oauth_codes_client ON oauth_codes (client_id);
CREATE INDEX oauth_clients_created ON oauth_clients (created_ns);
