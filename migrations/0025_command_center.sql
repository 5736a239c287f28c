-- 0025_command_center: filled in by its issue
SELECT 1;
