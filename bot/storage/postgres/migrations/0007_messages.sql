-- The running tables' messages, as the meta of their game kept them until now.
UPDATE games SET messages_json = json_build_object(
    'table', meta_json -> 'message_id',
    'headline', COALESCE(meta_json -> 'message_headline', '[]'::json),
    'faults', COALESCE(meta_json -> 'fault_messages', '{}'::json)
) WHERE status IN ('lobby', 'active');
