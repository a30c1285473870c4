-- An automation's report (GET /api/automations/:id/report, polled every 15 s) from counters instead of its history
-- (ADR 0021 amendment, docs/benchmarks.md session 23): it probed message_events once per step run ever sent and
-- counted every enrollment — p50 2.1 s at 400,000 enrollments and 800,000 runs on PostgreSQL. Now it sums the
-- automation's delta rows (automation_report_deltas, the pattern of ADR 0041's list counts): p50 10 ms, folded or
-- not. This migration at that size: 11.4 s, writers of enrollments, runs and events held until it commits. Each
-- run keeps whether a person opened and clicked its message (`opened`, `clicked`), so an open counts once per
-- message and kind whatever the events repeat.
CREATE TABLE "automation_report_deltas" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"automation_id" uuid NOT NULL,
	"step_id" uuid,
	"enrolled" integer DEFAULT 0 NOT NULL,
	"active" integer DEFAULT 0 NOT NULL,
	"completed" integer DEFAULT 0 NOT NULL,
	"exited" integer DEFAULT 0 NOT NULL,
	"sent" integer DEFAULT 0 NOT NULL,
	"opened" integer DEFAULT 0 NOT NULL,
	"clicked" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "automation_step_runs" ADD COLUMN "opened" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "automation_step_runs" ADD COLUMN "clicked" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "automation_report_deltas" ADD CONSTRAINT "automation_report_deltas_automation_id_automations_id_fk" FOREIGN KEY ("automation_id") REFERENCES "public"."automations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "automation_report_deltas" ADD CONSTRAINT "automation_report_deltas_step_id_automation_steps_id_fk" FOREIGN KEY ("step_id") REFERENCES "public"."automation_steps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "automation_report_deltas_automation_idx" ON "automation_report_deltas" USING btree ("automation_id");--> statement-breakpoint
CREATE INDEX "automation_report_deltas_step_idx" ON "automation_report_deltas" USING btree ("step_id");--> statement-breakpoint
CREATE INDEX "automation_step_runs_message_idx" ON "automation_step_runs" USING btree ("message_id") WHERE "automation_step_runs"."message_id" is not null;--> statement-breakpoint
-- Enrollments: every statement that writes them appends one row per automation it changed — all enrollments and
-- each status, the new rows added and the old ones taken away (a runner's move to the next step nets to nothing
-- and appends nothing). Enrollments leave only with their automation, whose rows go with it (nothing is appended
-- for an automation that is gone).
CREATE FUNCTION "automation_report_enrollments_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO automation_report_deltas (automation_id, enrolled, active, completed, exited)
  SELECT automation_id, count(*), count(*) FILTER (WHERE status = 'active'),
         count(*) FILTER (WHERE status = 'completed'), count(*) FILTER (WHERE status = 'exited')
    FROM new_enrollments GROUP BY automation_id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "automation_report_enrollments_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO automation_report_deltas (automation_id, enrolled, active, completed, exited)
  SELECT d.automation_id, sum(d.enrolled), sum(d.active), sum(d.completed), sum(d.exited)
    FROM (SELECT automation_id, 1 AS enrolled, (status = 'active')::int AS active,
                 (status = 'completed')::int AS completed, (status = 'exited')::int AS exited
            FROM new_enrollments
          UNION ALL
          SELECT automation_id, -1, -(status = 'active')::int, -(status = 'completed')::int, -(status = 'exited')::int
            FROM old_enrollments) d
   GROUP BY d.automation_id
  HAVING (sum(d.enrolled) <> 0 OR sum(d.active) <> 0 OR sum(d.completed) <> 0 OR sum(d.exited) <> 0)
     AND EXISTS (SELECT 1 FROM automations a WHERE a.id = d.automation_id);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "automation_report_enrollments_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO automation_report_deltas (automation_id, enrolled, active, completed, exited)
  SELECT o.automation_id, -count(*), -count(*) FILTER (WHERE o.status = 'active'),
         -count(*) FILTER (WHERE o.status = 'completed'), -count(*) FILTER (WHERE o.status = 'exited')
    FROM old_enrollments o
   WHERE EXISTS (SELECT 1 FROM automations a WHERE a.id = o.automation_id)
   GROUP BY o.automation_id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "automation_enrollments_report_ins" AFTER INSERT ON "automation_enrollments"
  REFERENCING NEW TABLE AS new_enrollments FOR EACH STATEMENT EXECUTE FUNCTION "automation_report_enrollments_insert"();
--> statement-breakpoint
CREATE TRIGGER "automation_enrollments_report_upd" AFTER UPDATE ON "automation_enrollments"
  REFERENCING OLD TABLE AS old_enrollments NEW TABLE AS new_enrollments FOR EACH STATEMENT
  EXECUTE FUNCTION "automation_report_enrollments_update"();
--> statement-breakpoint
CREATE TRIGGER "automation_enrollments_report_del" AFTER DELETE ON "automation_enrollments"
  REFERENCING OLD TABLE AS old_enrollments FOR EACH STATEMENT EXECUTE FUNCTION "automation_report_enrollments_delete"();
--> statement-breakpoint
-- Human opens and clicks reach the automations the way they reach segments and reports: a statement-level trigger
-- on message_events inserts (the tracking recorder's batches, and any other writer), the automations' own
-- function. It marks the runs whose message a person opened or clicked for the first time; the runs' update
-- trigger below turns that into the steps' counts. The rows are locked in message order before they change, so
-- two batches flagging the same runs wait for each other instead of deadlocking, and the second, once the first
-- has committed, finds them flagged and counts nothing. An event names a message its writer found committed (the
-- recorder joins messages by token in its insert), and a message commits with its run's message id
-- (run-steps.ts): by the time an event is inserted its run says which message it sent.
CREATE FUNCTION "automation_step_runs_engagement"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH human AS MATERIALIZED (
         SELECT message_id, bool_or(kind = 'open') AS opened, bool_or(kind = 'click') AS clicked
           FROM new_events WHERE kind IN ('open', 'click') AND NOT machine
          GROUP BY message_id ORDER BY message_id),
       due AS MATERIALIZED (
         SELECT r.message_id, h.opened, h.clicked
           FROM human h
          CROSS JOIN LATERAL (SELECT r.message_id FROM automation_step_runs r
                               WHERE r.message_id = h.message_id
                                 AND ((h.opened AND NOT r.opened) OR (h.clicked AND NOT r.clicked))
                               FOR UPDATE) r)
  -- By message id again, not by the locked rows' ctid: a row another batch changed before we locked it is not the
  -- version this statement's snapshot sees, and only a scan that re-checks it (by key) finds and updates it.
  UPDATE automation_step_runs r SET opened = r.opened OR d.opened, clicked = r.clicked OR d.clicked
    FROM due d WHERE r.message_id = d.message_id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "message_events_automation_runs" AFTER INSERT ON "message_events"
  REFERENCING NEW TABLE AS new_events FOR EACH STATEMENT EXECUTE FUNCTION "automation_step_runs_engagement"();
--> statement-breakpoint
-- A run that gets its message id takes the events that message already has (none when the runner writes it: the
-- message is created in the same transaction), so the flags never depend on which came first.
CREATE FUNCTION "automation_step_runs_message_events"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT coalesce(bool_or(me.kind = 'open'), false), coalesce(bool_or(me.kind = 'click'), false)
    INTO NEW.opened, NEW.clicked
    FROM message_events me
   WHERE me.message_id = NEW.message_id AND me.kind IN ('open', 'click') AND NOT me.machine;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER "automation_step_runs_message_ins" BEFORE INSERT ON "automation_step_runs"
  FOR EACH ROW WHEN (NEW.message_id IS NOT NULL) EXECUTE FUNCTION "automation_step_runs_message_events"();
--> statement-breakpoint
CREATE TRIGGER "automation_step_runs_message_upd" BEFORE UPDATE OF "message_id" ON "automation_step_runs"
  FOR EACH ROW WHEN (NEW.message_id IS DISTINCT FROM OLD.message_id) EXECUTE FUNCTION "automation_step_runs_message_events"();
--> statement-breakpoint
-- The runs as they are: flagged from their messages' events, one probe of message_events by message per run
-- with a message (LATERAL: never a scan of every event).
UPDATE automation_step_runs r SET opened = f.opened, clicked = f.clicked
  FROM (SELECT r.enrollment_id, r.step_id, ev.opened, ev.clicked
          FROM automation_step_runs r
         CROSS JOIN LATERAL (SELECT coalesce(bool_or(me.kind = 'open'), false) AS opened,
                                    coalesce(bool_or(me.kind = 'click'), false) AS clicked
                               FROM message_events me
                              WHERE me.message_id = r.message_id AND me.kind IN ('open', 'click')
                                AND NOT me.machine) ev
         WHERE r.message_id IS NOT NULL AND (ev.opened OR ev.clicked)) f
 WHERE r.enrollment_id = f.enrollment_id AND r.step_id = f.step_id;
--> statement-breakpoint
-- Runs: a run counts in its step's `sent` once it has a message, and in `opened` / `clicked` once a person opened
-- / clicked that message; every statement that writes runs appends, per step it changed, the new rows' counts
-- minus the old ones'. The runner's insert (no message yet) appends nothing; its message ids, one row per step.
-- A deleted step's runs go after the step, when nothing is counted for it any more.
CREATE FUNCTION "automation_report_runs_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO automation_report_deltas (automation_id, step_id, sent, opened, clicked)
  SELECT automation_id, step_id, count(*), count(*) FILTER (WHERE opened), count(*) FILTER (WHERE clicked)
    FROM new_runs WHERE message_id IS NOT NULL
   GROUP BY automation_id, step_id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "automation_report_runs_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO automation_report_deltas (automation_id, step_id, sent, opened, clicked)
  SELECT d.automation_id, d.step_id, sum(d.sent), sum(d.opened), sum(d.clicked)
    FROM (SELECT automation_id, step_id, 1 AS sent, opened::int AS opened, clicked::int AS clicked
            FROM new_runs WHERE message_id IS NOT NULL
          UNION ALL
          SELECT automation_id, step_id, -1, -opened::int, -clicked::int
            FROM old_runs WHERE message_id IS NOT NULL) d
   GROUP BY d.automation_id, d.step_id
  HAVING (sum(d.sent) <> 0 OR sum(d.opened) <> 0 OR sum(d.clicked) <> 0)
     AND EXISTS (SELECT 1 FROM automation_steps s WHERE s.id = d.step_id);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "automation_report_runs_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO automation_report_deltas (automation_id, step_id, sent, opened, clicked)
  SELECT o.automation_id, o.step_id, -count(*), -count(*) FILTER (WHERE o.opened), -count(*) FILTER (WHERE o.clicked)
    FROM old_runs o
   WHERE o.message_id IS NOT NULL AND EXISTS (SELECT 1 FROM automation_steps s WHERE s.id = o.step_id)
   GROUP BY o.automation_id, o.step_id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "automation_step_runs_report_ins" AFTER INSERT ON "automation_step_runs"
  REFERENCING NEW TABLE AS new_runs FOR EACH STATEMENT EXECUTE FUNCTION "automation_report_runs_insert"();
--> statement-breakpoint
CREATE TRIGGER "automation_step_runs_report_upd" AFTER UPDATE ON "automation_step_runs"
  REFERENCING OLD TABLE AS old_runs NEW TABLE AS new_runs FOR EACH STATEMENT
  EXECUTE FUNCTION "automation_report_runs_update"();
--> statement-breakpoint
CREATE TRIGGER "automation_step_runs_report_del" AFTER DELETE ON "automation_step_runs"
  REFERENCING OLD TABLE AS old_runs FOR EACH STATEMENT EXECUTE FUNCTION "automation_report_runs_delete"();
--> statement-breakpoint
-- The counts as they are (the triggers above, and the new columns, hold the writers of enrollments, runs and
-- events off until this commits).
INSERT INTO automation_report_deltas (automation_id, enrolled, active, completed, exited)
SELECT automation_id, count(*), count(*) FILTER (WHERE status = 'active'),
       count(*) FILTER (WHERE status = 'completed'), count(*) FILTER (WHERE status = 'exited')
  FROM automation_enrollments GROUP BY automation_id;
--> statement-breakpoint
INSERT INTO automation_report_deltas (automation_id, step_id, sent, opened, clicked)
SELECT s.automation_id, s.id, count(*), count(*) FILTER (WHERE r.opened), count(*) FILTER (WHERE r.clicked)
  FROM automation_step_runs r JOIN automation_steps s ON s.id = r.step_id
 WHERE r.message_id IS NOT NULL
 GROUP BY s.automation_id, s.id;
