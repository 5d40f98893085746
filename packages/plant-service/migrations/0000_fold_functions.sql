-- Text folding for full-text search (issue 2): case, accents and umlauts are folded so that
-- "mohre" finds "Möhre". plant_names also indexes the German transliteration ("moehre").
-- Both are IMMUTABLE so generated tsvector columns can use them; they need no extension, so
-- PostgreSQL and PGlite fold identically.
CREATE FUNCTION plant_fold(t text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN lower(translate(replace(replace(t, 'ß', 'ss'), 'ẞ', 'SS'),
    'ÀÁÂÃÄÅàáâãäåÇçÈÉÊËèéêëÌÍÎÏìíîïÑñÒÓÔÕÖØòóôõöøÙÚÛÜùúûüÝýÿŠšŽžČčĆćŘřŇňĚěŮůŁłŃńŚśŹźŻżĄąĘęŐőŰűŞşĞğİı',
    'AAAAAAaaaaaaCcEEEEeeeeIIIIiiiiNnOOOOOOooooooUUUUuuuuYyySsZzCcCcRrNnEeUuLlNnSsZzZzAaEeOoUuSsGgIi'));
--> statement-breakpoint
CREATE FUNCTION plant_names(t text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN CASE WHEN t ~ '[ÄÖÜäöü]'
    THEN plant_fold(t) || ' ' || plant_fold(replace(replace(replace(replace(replace(replace(t,
      'ä', 'ae'), 'ö', 'oe'), 'ü', 'ue'), 'Ä', 'Ae'), 'Ö', 'Oe'), 'Ü', 'Ue'))
    ELSE plant_fold(t) END;
