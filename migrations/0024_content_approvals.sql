-- 0024_content_approvals: filled in by its issue
SELECT 1;
