-- Issue 23: trailer types are codes (packages/shared TRAILER_TYPES, labelled by equipment_types in
-- each language) instead of text typed in whichever language the user had on. Stored text that
-- names a trailer equipment type — its code, English or Arabic name, any case, or the code
-- without "_trailer" ("flatbed") — becomes that code. Anything else is left as it was (shown as
-- typed); the API accepts only codes from now on.
update trailers t
   set trailer_type = e.code
  from equipment_types e
 where e.class = 'heavy'
   and t.trailer_type <> e.code
   and (lower(btrim(t.trailer_type)) in (lower(e.code), lower(e.name_en), replace(lower(e.code), '_trailer', ''))
        or btrim(t.trailer_type) = e.name_ar);
