-- A planner fence for segment counts (compile-segment.ts, FieldTexts): a field text a tree tests several times is a
-- column of a sub-query over contacts, computed once per contact. Wrapped in this VOLATILE function the sub-query is
-- neither merged into the outer query nor given the conditions on that column (either would write the expression
-- back into every condition); being one SELECT of its argument it is then inlined, so it costs nothing per row.
-- PARALLEL SAFE: the sub-query's scan keeps its parallel workers.
CREATE FUNCTION "segment_read_once"(x text) RETURNS text LANGUAGE sql VOLATILE PARALLEL SAFE AS $$
  SELECT x
$$;
