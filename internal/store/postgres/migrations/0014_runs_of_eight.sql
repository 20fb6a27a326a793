-- The substring index gains a key for each run of eight characters
-- (gramLengths): a substring of eight or more is looked up by them as well
-- as by its runs of five, so that words or sentences that many signals
-- hold, asked for in an order few hold them in, name few candidates.
--
-- Every signal is queued again, to be indexed with its new keys; until it
-- is, a listing by substring walks, as after 0013.
INSERT INTO signal_trigrams_pending (id) SELECT id FROM signals ON CONFLICT (id) DO NOTHING;
