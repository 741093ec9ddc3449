-- The running tables' messages, as the meta of their game kept them until now.
UPDATE games SET messages_json = json_object(
    'table', json_extract(meta_json, '$.message_id'),
    'headline', json(COALESCE(json_extract(meta_json, '$.message_headline'), '[]')),
    'faults', json(COALESCE(json_extract(meta_json, '$.fault_messages'), '{}'))
) WHERE status IN ('lobby', 'active');
