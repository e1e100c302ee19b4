-- Change points of `lab track` and `lab history`: the alerts sent about them
-- and their acknowledgements, each keyed by the change point's id
-- (history.Key.ID: its series and commit pair), with the key's fields for
-- people reading the table.

CREATE TABLE pgrst_lab.change_alerts (
    change_id   text NOT NULL,
    channel     text NOT NULL,                  -- webhook, issue
    sent_at     timestamptz NOT NULL DEFAULT now(),
    experiment  text NOT NULL,
    host_id     text NOT NULL,
    edition     text NOT NULL,                  -- the experiment's hash
    scenario    text NOT NULL,
    variant     text NOT NULL,
    metric      text NOT NULL,
    before_ref  text NOT NULL,                  -- last commit (or run:ID) before the change
    after_ref   text NOT NULL,                  -- first commit (or run:ID) at the new level
    change_pct  double precision,
    p           double precision,
    PRIMARY KEY (change_id, channel)
);

CREATE TABLE pgrst_lab.change_acks (
    change_id   text PRIMARY KEY,
    note        text NOT NULL,
    acked_at    timestamptz NOT NULL DEFAULT now(),
    experiment  text NOT NULL,
    host_id     text NOT NULL,
    edition     text NOT NULL,
    scenario    text NOT NULL,
    variant     text NOT NULL,
    metric      text NOT NULL,
    before_ref  text NOT NULL,
    after_ref   text NOT NULL
);
