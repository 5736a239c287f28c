-- 0026_command_indexes: filled in by its issue
SELECT 1;
