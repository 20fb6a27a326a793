-- Every change of a generation (signals, credentials) is announced on the
-- channel signals_generations when its transaction commits. Each replica
-- listens, and keeps both generations in memory instead of reading them for
-- every request; it reads them again when told, and every second.
CREATE FUNCTION notify_generation() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('signals_generations', TG_TABLE_NAME);
    RETURN NULL;
END
$$;

CREATE TRIGGER signal_generation_notify AFTER UPDATE ON signal_generation
    FOR EACH ROW EXECUTE FUNCTION notify_generation();
CREATE TRIGGER credential_generation_notify AFTER UPDATE ON credential_generation
    FOR EACH ROW EXECUTE FUNCTION notify_generation();
