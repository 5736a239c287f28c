// Generated from the service's OpenAPI document by console/generate-api-types.ts (npm run console:api-types).
// Do not edit: change the route's schema and generate again.

export interface paths {
    "/.well-known/jwks.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Public signing keys (previous, active, staged next); select by kid */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            keys: {
                                alg: string;
                                e: string;
                                kid: string;
                                kty: string;
                                n: string;
                                use: string;
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/.well-known/openid-configuration": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * OpenID Provider discovery
         * @description OIDC Discovery 1.0: every URL derives from OIDC_ISSUER; advertises exactly what is enforced.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/.well-known/security.txt": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Security contact (RFC 9116) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/agents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the organization's agents, newest first (never their credentials) */
        get: {
            parameters: {
                query?: {
                    /** @description The `next_cursor` of the previous page: the rows after it */
                    cursor?: string;
                    limit?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            agents: {
                                /** Format: uuid */
                                agent_id: string;
                                confidence_floor: number;
                                /** Format: date-time */
                                created_at: string;
                                created_by_user_id: string | null;
                                /** Format: date-time */
                                credential_issued_at: string;
                                /** @description The first characters of the current credential (never the rest) */
                                credential_prefix: string;
                                description: string | null;
                                kill_switch: {
                                    changed_at: string | null;
                                    engaged: boolean;
                                    /** @description The person who engaged it; null when the blast-radius breaker or autonomy did, or released */
                                    engaged_by: {
                                        id: string;
                                        type: string;
                                    } | null;
                                    reason: string | null;
                                };
                                name: string;
                                /** @description 'supervised': every state-changing action is parked for a person's approval */
                                oversight_mode: "autonomous" | "supervised";
                                retired_at: string | null;
                                risk_ceiling: number;
                                status: "active" | "suspended" | "retired";
                                suspended_at: string | null;
                                /** Format: date-time */
                                updated_at: string;
                                /** @description Writes per rolling hour before the blast-radius breaker engages; null: the plan's figure */
                                write_budget_per_hour: number | null;
                            }[];
                            /** @description Pass as `cursor` for the next page; null on the last one */
                            next_cursor: string | null;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        put?: never;
        /** Register an agent (its agt_ credential is returned once) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description An action stated with a lower `Agent-Confidence` header (or none, while above 0) is refused */
                        confidence_floor?: number;
                        description?: string | null;
                        name: string;
                        /** @description 'supervised': every state-changing action is parked for a person's approval */
                        oversight_mode?: "autonomous" | "supervised";
                        /** @description An action whose permission's risk (GET /authz/catalog) is above it is refused */
                        risk_ceiling?: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: uuid */
                            agent_id: string;
                            confidence_floor: number;
                            /** Format: date-time */
                            created_at: string;
                            created_by_user_id: string | null;
                            /** Format: date-time */
                            credential_issued_at: string;
                            /** @description The first characters of the current credential (never the rest) */
                            credential_prefix: string;
                            description: string | null;
                            kill_switch: {
                                changed_at: string | null;
                                engaged: boolean;
                                /** @description The person who engaged it; null when the blast-radius breaker or autonomy did, or released */
                                engaged_by: {
                                    id: string;
                                    type: string;
                                } | null;
                                reason: string | null;
                            };
                            name: string;
                            /** @description 'supervised': every state-changing action is parked for a person's approval */
                            oversight_mode: "autonomous" | "supervised";
                            retired_at: string | null;
                            risk_ceiling: number;
                            status: "active" | "suspended" | "retired";
                            suspended_at: string | null;
                            /** Format: date-time */
                            updated_at: string;
                            /** @description Writes per rolling hour before the blast-radius breaker engages; null: the plan's figure */
                            write_budget_per_hour: number | null;
                        } & {
                            /** @description The agt_ credential: shown once, store it now */
                            credential: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/agents/{agent_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read an agent and its live delegations */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    agent_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: uuid */
                            agent_id: string;
                            confidence_floor: number;
                            /** Format: date-time */
                            created_at: string;
                            created_by_user_id: string | null;
                            /** Format: date-time */
                            credential_issued_at: string;
                            /** @description The first characters of the current credential (never the rest) */
                            credential_prefix: string;
                            description: string | null;
                            kill_switch: {
                                changed_at: string | null;
                                engaged: boolean;
                                /** @description The person who engaged it; null when the blast-radius breaker or autonomy did, or released */
                                engaged_by: {
                                    id: string;
                                    type: string;
                                } | null;
                                reason: string | null;
                            };
                            name: string;
                            /** @description 'supervised': every state-changing action is parked for a person's approval */
                            oversight_mode: "autonomous" | "supervised";
                            retired_at: string | null;
                            risk_ceiling: number;
                            status: "active" | "suspended" | "retired";
                            suspended_at: string | null;
                            /** Format: date-time */
                            updated_at: string;
                            /** @description Writes per rolling hour before the blast-radius breaker engages; null: the plan's figure */
                            write_budget_per_hour: number | null;
                        } & {
                            /** @description Live delegations */
                            delegations: {
                                /** Format: date-time */
                                created_at: string;
                                /** Format: uuid */
                                delegation_id: string;
                                /** Format: uuid */
                                delegator_user_id: string;
                                expires_at: string | null;
                                permissions: string[];
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Change an agent's name, description or governance fields */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    agent_id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description An action stated with a lower `Agent-Confidence` header (or none, while above 0) is refused */
                        confidence_floor?: number;
                        description?: string | null;
                        name?: string;
                        /** @description 'supervised': every state-changing action is parked for a person's approval */
                        oversight_mode?: "autonomous" | "supervised";
                        /** @description An action whose permission's risk (GET /authz/catalog) is above it is refused */
                        risk_ceiling?: number;
                        /** @description Writes per rolling hour before the blast-radius breaker engages; null: the plan's figure */
                        write_budget_per_hour?: number | null;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: uuid */
                            agent_id: string;
                            confidence_floor: number;
                            /** Format: date-time */
                            created_at: string;
                            created_by_user_id: string | null;
                            /** Format: date-time */
                            credential_issued_at: string;
                            /** @description The first characters of the current credential (never the rest) */
                            credential_prefix: string;
                            description: string | null;
                            kill_switch: {
                                changed_at: string | null;
                                engaged: boolean;
                                /** @description The person who engaged it; null when the blast-radius breaker or autonomy did, or released */
                                engaged_by: {
                                    id: string;
                                    type: string;
                                } | null;
                                reason: string | null;
                            };
                            name: string;
                            /** @description 'supervised': every state-changing action is parked for a person's approval */
                            oversight_mode: "autonomous" | "supervised";
                            retired_at: string | null;
                            risk_ceiling: number;
                            status: "active" | "suspended" | "retired";
                            suspended_at: string | null;
                            /** Format: date-time */
                            updated_at: string;
                            /** @description Writes per rolling hour before the blast-radius breaker engages; null: the plan's figure */
                            write_budget_per_hour: number | null;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/v1/agents/{agent_id}/delegations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Delegate some of your own permissions to an agent, optionally time-boxed */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    agent_id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Time box; absent: until revoked */
                        expires_in_days?: number;
                        /** @description Exact permission codes of the catalogue, each held by the caller */
                        permissions: string[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: uuid */
                            agent_id: string;
                            /** Format: date-time */
                            created_at: string;
                            /** Format: uuid */
                            delegation_id: string;
                            expires_at: string | null;
                            permissions: string[];
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/agents/{agent_id}/kill-switch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Engage (agents:manage, with a reason) or release (agents:kill) the kill switch */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    agent_id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description true engages (agents:manage, reason required); false releases (agents:kill) */
                        engaged: boolean;
                        reason?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: uuid */
                            agent_id: string;
                            confidence_floor: number;
                            /** Format: date-time */
                            created_at: string;
                            created_by_user_id: string | null;
                            /** Format: date-time */
                            credential_issued_at: string;
                            /** @description The first characters of the current credential (never the rest) */
                            credential_prefix: string;
                            description: string | null;
                            kill_switch: {
                                changed_at: string | null;
                                engaged: boolean;
                                /** @description The person who engaged it; null when the blast-radius breaker or autonomy did, or released */
                                engaged_by: {
                                    id: string;
                                    type: string;
                                } | null;
                                reason: string | null;
                            };
                            name: string;
                            /** @description 'supervised': every state-changing action is parked for a person's approval */
                            oversight_mode: "autonomous" | "supervised";
                            retired_at: string | null;
                            risk_ceiling: number;
                            status: "active" | "suspended" | "retired";
                            suspended_at: string | null;
                            /** Format: date-time */
                            updated_at: string;
                            /** @description Writes per rolling hour before the blast-radius breaker engages; null: the plan's figure */
                            write_budget_per_hour: number | null;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/agents/{agent_id}/resume": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Resume a suspended agent */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    agent_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: uuid */
                            agent_id: string;
                            confidence_floor: number;
                            /** Format: date-time */
                            created_at: string;
                            created_by_user_id: string | null;
                            /** Format: date-time */
                            credential_issued_at: string;
                            /** @description The first characters of the current credential (never the rest) */
                            credential_prefix: string;
                            description: string | null;
                            kill_switch: {
                                changed_at: string | null;
                                engaged: boolean;
                                /** @description The person who engaged it; null when the blast-radius breaker or autonomy did, or released */
                                engaged_by: {
                                    id: string;
                                    type: string;
                                } | null;
                                reason: string | null;
                            };
                            name: string;
                            /** @description 'supervised': every state-changing action is parked for a person's approval */
                            oversight_mode: "autonomous" | "supervised";
                            retired_at: string | null;
                            risk_ceiling: number;
                            status: "active" | "suspended" | "retired";
                            suspended_at: string | null;
                            /** Format: date-time */
                            updated_at: string;
                            /** @description Writes per rolling hour before the blast-radius breaker engages; null: the plan's figure */
                            write_budget_per_hour: number | null;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/agents/{agent_id}/retire": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Retire an agent for good: its credential dies at once and its delegations end */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    agent_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: uuid */
                            agent_id: string;
                            confidence_floor: number;
                            /** Format: date-time */
                            created_at: string;
                            created_by_user_id: string | null;
                            /** Format: date-time */
                            credential_issued_at: string;
                            /** @description The first characters of the current credential (never the rest) */
                            credential_prefix: string;
                            description: string | null;
                            kill_switch: {
                                changed_at: string | null;
                                engaged: boolean;
                                /** @description The person who engaged it; null when the blast-radius breaker or autonomy did, or released */
                                engaged_by: {
                                    id: string;
                                    type: string;
                                } | null;
                                reason: string | null;
                            };
                            name: string;
                            /** @description 'supervised': every state-changing action is parked for a person's approval */
                            oversight_mode: "autonomous" | "supervised";
                            retired_at: string | null;
                            risk_ceiling: number;
                            status: "active" | "suspended" | "retired";
                            suspended_at: string | null;
                            /** Format: date-time */
                            updated_at: string;
                            /** @description Writes per rolling hour before the blast-radius breaker engages; null: the plan's figure */
                            write_budget_per_hour: number | null;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/agents/{agent_id}/rotate-credential": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Replace the credential (returned once); the old one and every token minted under it stop */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    agent_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: uuid */
                            agent_id: string;
                            /** @description The new agt_ credential: shown once; the previous one stopped working */
                            credential: string;
                            /** Format: date-time */
                            credential_issued_at: string;
                            credential_prefix: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/agents/{agent_id}/suspend": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Suspend an agent: its tokens are refused until it is resumed */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    agent_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: uuid */
                            agent_id: string;
                            confidence_floor: number;
                            /** Format: date-time */
                            created_at: string;
                            created_by_user_id: string | null;
                            /** Format: date-time */
                            credential_issued_at: string;
                            /** @description The first characters of the current credential (never the rest) */
                            credential_prefix: string;
                            description: string | null;
                            kill_switch: {
                                changed_at: string | null;
                                engaged: boolean;
                                /** @description The person who engaged it; null when the blast-radius breaker or autonomy did, or released */
                                engaged_by: {
                                    id: string;
                                    type: string;
                                } | null;
                                reason: string | null;
                            };
                            name: string;
                            /** @description 'supervised': every state-changing action is parked for a person's approval */
                            oversight_mode: "autonomous" | "supervised";
                            retired_at: string | null;
                            risk_ceiling: number;
                            status: "active" | "suspended" | "retired";
                            suspended_at: string | null;
                            /** Format: date-time */
                            updated_at: string;
                            /** @description Writes per rolling hour before the blast-radius breaker engages; null: the plan's figure */
                            write_budget_per_hour: number | null;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/agents/issuers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The organization's trusted issuers, each with its bindings */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": ({
                            /** @description The claims a binding may name */
                            claim_schema: string[];
                            /** Format: date-time */
                            created_at: string;
                            enabled: boolean;
                            /** Format: uuid */
                            id: string;
                            /** @description Matched exactly against the `iss` of attestations */
                            issuer: string;
                            jwks_uri: string;
                            name: string | null;
                            /** @description The issuer's kind (generic, github-actions, gitlab-ci, kubernetes): it decides which claims a binding may name */
                            profile: "generic" | "github-actions" | "gitlab-ci" | "kubernetes";
                        } & {
                            bindings: {
                                /** Format: uuid */
                                agent_id: string;
                                /** Format: uuid */
                                binding_id: string;
                                /** @description Claim name to exact value, from the profile's claim_schema; `sub` required; no wildcards */
                                claims: {
                                    [key: string]: string;
                                };
                                /** Format: date-time */
                                created_at: string;
                            }[];
                        })[];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        put?: never;
        /** Trust a workload identity issuer for federated exchange */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The exact `iss` of its attestations (https) */
                        issuer: string;
                        /** @description Default: the one the issuer's discovery names */
                        jwks_uri?: string;
                        name?: string | null;
                        /** @description The issuer's kind (generic, github-actions, gitlab-ci, kubernetes): it decides which claims a binding may name */
                        profile?: "generic" | "github-actions" | "gitlab-ci" | "kubernetes";
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description The claims a binding may name */
                            claim_schema: string[];
                            /** Format: date-time */
                            created_at: string;
                            enabled: boolean;
                            /** Format: uuid */
                            id: string;
                            /** @description Matched exactly against the `iss` of attestations */
                            issuer: string;
                            jwks_uri: string;
                            name: string | null;
                            /** @description The issuer's kind (generic, github-actions, gitlab-ci, kubernetes): it decides which claims a binding may name */
                            profile: "generic" | "github-actions" | "gitlab-ci" | "kubernetes";
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/agents/issuers/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Stop trusting an issuer; its bindings are removed */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /** Enable or disable an issuer (disabled: every exchange refused, configuration kept) */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        enabled: boolean;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description The claims a binding may name */
                            claim_schema: string[];
                            /** Format: date-time */
                            created_at: string;
                            enabled: boolean;
                            /** Format: uuid */
                            id: string;
                            /** @description Matched exactly against the `iss` of attestations */
                            issuer: string;
                            jwks_uri: string;
                            name: string | null;
                            /** @description The issuer's kind (generic, github-actions, gitlab-ci, kubernetes): it decides which claims a binding may name */
                            profile: "generic" | "github-actions" | "gitlab-ci" | "kubernetes";
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/v1/agents/issuers/{id}/bindings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Bind an issuer's attestations with exactly these claims to an agent */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        agent_id: string;
                        /** @description Claim name to exact value, from the profile's claim_schema; `sub` required; no wildcards */
                        claims: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: uuid */
                            agent_id: string;
                            /** Format: uuid */
                            binding_id: string;
                            /** @description Claim name to exact value, from the profile's claim_schema; `sub` required; no wildcards */
                            claims: {
                                [key: string]: string;
                            };
                            /** Format: date-time */
                            created_at: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/agents/issuers/{id}/bindings/{binding_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Remove one binding */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    binding_id: string;
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/agents/token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Mint an agent access token (optionally a task token) with the agent credential */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The agent credential (`agt_…`): it is the authentication */
                        credential: string;
                        task?: {
                            /** @description How many authorized requests the token may make */
                            budget: number;
                            /** @description Permission codes or patterns such as `command:*`, within the agent’s authority */
                            permissions: string[];
                            /** @description The purpose of the task: recorded, and shown to approvers */
                            task: string;
                        };
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            access_token: string;
                            /** Format: uuid */
                            agent_id: string;
                            /** @description Seconds (900) */
                            expires_in: number;
                            task?: {
                                budget: number;
                                /** Format: uuid */
                                id: string;
                                /** @description The concrete codes enforced (patterns expanded) */
                                permissions: string[];
                                task: string;
                            };
                            token_type: "Bearer" | "DPoP";
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/agents/token/federated": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Exchange a workload attestation for an agent token (the attestation is the authentication) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The attestation JWT */
                        subject_token: string;
                        /** @description The organization slug */
                        tenant: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            access_token: string;
                            /** Format: uuid */
                            agent_id: string;
                            /** @description Seconds (900) */
                            expires_in: number;
                            task?: {
                                budget: number;
                                /** Format: uuid */
                                id: string;
                                /** @description The concrete codes enforced (patterns expanded) */
                                permissions: string[];
                                task: string;
                            };
                            token_type: "Bearer" | "DPoP";
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/approvals": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The approval queue, newest first: every kind of ask, with what it binds to
         * @description Filters `status` (as of now: a pending or approved ask past `expires_at` is `expired`), `agent_id` and `resource_type`.
         */
        get: {
            parameters: {
                query?: {
                    /** @description Only the asks of this agent */
                    agent_id?: string;
                    /** @description The `next_cursor` of the previous page: the rows after it */
                    cursor?: string;
                    limit?: number;
                    /** @description `action` (a parked route call), `content`, `manifest`… */
                    resource_type?: string;
                    /** @description At the time of the answer: a pending or approved ask past `expires_at` is expired */
                    status?: "pending" | "approved" | "denied" | "expired" | "consumed";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            approvals: {
                                /** @description The requesting agent */
                                agent_id: string | null;
                                /**
                                 * Format: uuid
                                 * @description The same as `id`
                                 */
                                approval_id: string;
                                /** @description Distinct people who approved so far */
                                approvals_recorded: number;
                                consumed_at: string | null;
                                /** Format: date-time */
                                created_at: string;
                                decided_at: string | null;
                                /** @description The person whose decision settled the ask */
                                decided_by: string | null;
                                /** Format: date-time */
                                expires_at: string;
                                /** @description What the approval binds to: the action fingerprint (SHA-256 of its JCS) or the content hash */
                                fingerprint: string;
                                /** Format: uuid */
                                id: string;
                                /** @description The agent's task text */
                                justification: string | null;
                                /** @description The settling decision’s reason */
                                reason: string | null;
                                /** @description Who asked (an actor id: the agent, never the person who delegated to it) */
                                requested_by: string | null;
                                /** @description Distinct people who must approve */
                                required_approvals: number;
                                /** @description The permission the asked action needs: an approver must hold it besides agents:approvals:decide */
                                required_permission: string | null;
                                /** @description What is decided: for an action `{method, route, params, body}`; null when no detail was recorded */
                                resource: {
                                    [key: string]: unknown;
                                } | null;
                                /** @description `action` for a parked route call; `content`, `manifest`… */
                                resource_type: string;
                                /** @description At the time of the answer: a pending or approved ask past `expires_at` is expired */
                                status: "pending" | "approved" | "denied" | "expired" | "consumed";
                            }[];
                            /** @description Pass as `cursor` for the next page; null on the last one */
                            next_cursor: string | null;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/approvals/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One approval request with each decision recorded on it
         * @description Needs `agents:approvals:read`, except for the requesting agent reading its own request; any other agent gets 404.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The approval request id */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description The requesting agent */
                            agent_id: string | null;
                            /**
                             * Format: uuid
                             * @description The same as `id`
                             */
                            approval_id: string;
                            /** @description Distinct people who approved so far */
                            approvals_recorded: number;
                            consumed_at: string | null;
                            /** Format: date-time */
                            created_at: string;
                            decided_at: string | null;
                            /** @description The person whose decision settled the ask */
                            decided_by: string | null;
                            /** Format: date-time */
                            expires_at: string;
                            /** @description What the approval binds to: the action fingerprint (SHA-256 of its JCS) or the content hash */
                            fingerprint: string;
                            /** Format: uuid */
                            id: string;
                            /** @description The agent's task text */
                            justification: string | null;
                            /** @description The settling decision’s reason */
                            reason: string | null;
                            /** @description Who asked (an actor id: the agent, never the person who delegated to it) */
                            requested_by: string | null;
                            /** @description Distinct people who must approve */
                            required_approvals: number;
                            /** @description The permission the asked action needs: an approver must hold it besides agents:approvals:decide */
                            required_permission: string | null;
                            /** @description What is decided: for an action `{method, route, params, body}`; null when no detail was recorded */
                            resource: {
                                [key: string]: unknown;
                            } | null;
                            /** @description `action` for a parked route call; `content`, `manifest`… */
                            resource_type: string;
                            /** @description At the time of the answer: a pending or approved ask past `expires_at` is expired */
                            status: "pending" | "approved" | "denied" | "expired" | "consumed";
                        } & {
                            /** @description Each person's decision, oldest first */
                            decisions: {
                                approve: boolean;
                                break_glass: boolean;
                                /** Format: date-time */
                                decided_at: string;
                                /** @description The deciding person (an actor id) */
                                decided_by: string;
                                reason: string | null;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/approvals/{id}/decide": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Approve or deny an approval request (people only)
         * @description Also needs the permission the asked action needs (`required_permission`). 403 for the requester, for break-glass by a non-owner and for a missing permission (named); 409 once decided or expired, or when you already decided it.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The approval request id */
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description true approves, false denies (one denial settles the ask) */
                        approve: boolean;
                        /**
                         * @description Owners only: settles the ask on this one decision even where more approvers are required; audited as critical
                         * @default false
                         */
                        break_glass?: boolean;
                        /** @description Why; audited with the decision */
                        reason?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description The requesting agent */
                            agent_id: string | null;
                            /**
                             * Format: uuid
                             * @description The same as `id`
                             */
                            approval_id: string;
                            /** @description Distinct people who approved so far */
                            approvals_recorded: number;
                            consumed_at: string | null;
                            /** Format: date-time */
                            created_at: string;
                            decided_at: string | null;
                            /** @description The person whose decision settled the ask */
                            decided_by: string | null;
                            /** Format: date-time */
                            expires_at: string;
                            /** @description What the approval binds to: the action fingerprint (SHA-256 of its JCS) or the content hash */
                            fingerprint: string;
                            /** Format: uuid */
                            id: string;
                            /** @description The agent's task text */
                            justification: string | null;
                            /** @description The settling decision’s reason */
                            reason: string | null;
                            /** @description Who asked (an actor id: the agent, never the person who delegated to it) */
                            requested_by: string | null;
                            /** @description Distinct people who must approve */
                            required_approvals: number;
                            /** @description The permission the asked action needs: an approver must hold it besides agents:approvals:decide */
                            required_permission: string | null;
                            /** @description What is decided: for an action `{method, route, params, body}`; null when no detail was recorded */
                            resource: {
                                [key: string]: unknown;
                            } | null;
                            /** @description `action` for a parked route call; `content`, `manifest`… */
                            resource_type: string;
                            /** @description At the time of the answer: a pending or approved ask past `expires_at` is expired */
                            status: "pending" | "approved" | "denied" | "expired" | "consumed";
                        } & {
                            /** @description Each person's decision, oldest first */
                            decisions: {
                                approve: boolean;
                                break_glass: boolean;
                                /** Format: date-time */
                                decided_at: string;
                                /** @description The deciding person (an actor id) */
                                decided_by: string;
                                reason: string | null;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/approvals/content/consume": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Spend the approval of these exact bytes, once, before publishing them
         * @description 409 with `state` and `message` when there is nothing to spend: `pending` (not decided), `denied`, `expired`, or `consumed` (already spent). 404 when nobody in the organization asked about these bytes.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description SHA-256 of the exact bytes of the content: 64 lowercase hexadecimal digits */
                        content_hash: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: uuid */
                            agent_id: string;
                            /** Format: uuid */
                            approval_id: string;
                            /** Format: date-time */
                            consumed_at: string;
                            /** @description SHA-256 of the exact bytes of the content: 64 lowercase hexadecimal digits */
                            content_hash: string;
                            /** @enum {string} */
                            state: "consumed";
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description The approval cannot be spent: not decided yet, denied, expired, or already consumed */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                            message: string;
                            state: "pending" | "denied" | "expired" | "consumed";
                        };
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/approvals/content/feedback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The requesting agent reads the decision on its newest ask about these bytes (on denial, the reason)
         * @description 404 when this agent asked about no content with this hash (another agent’s ask included).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description SHA-256 of the exact bytes of the content: 64 lowercase hexadecimal digits */
                        content_hash: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: uuid */
                            approval_id: string;
                            /** @description SHA-256 of the exact bytes of the content: 64 lowercase hexadecimal digits */
                            content_hash: string;
                            decided_at: string | null;
                            /**
                             * Format: date-time
                             * @description An undecided ask expires then
                             */
                            expires_at: string;
                            /** @description The decider's reason (always shown on a denial when one was given); null while undecided */
                            reason: string | null;
                            /** @description pending: no person decided yet; approved: may be published once; denied: a person refused it; consumed: the approval was spent; expired: nobody decided within 24 hours */
                            state: "pending" | "approved" | "denied" | "consumed" | "expired";
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/approvals/content/request": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * An agent asks a person to review content it wrote (keyed on the SHA-256 of its exact bytes)
         * @description Creates a pending approval request (`resource_type` content) that a person holding agents:approvals:decide and content:review decides through POST /approvals/{id}/decide; it expires after 24 hours undecided. 201 with a new ask; 200 with the same ask when this agent already has a live one (pending, or approved and unspent) for these bytes. 403 when another agent of the organization asked about these bytes.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description SHA-256 of the exact bytes of the content: 64 lowercase hexadecimal digits */
                        content_hash: string;
                        /** @description Shown to reviewers */
                        summary?: string;
                        /** @description Shown to reviewers */
                        title?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /**
                             * Format: uuid
                             * @description The approval request a person decides through POST /approvals/{id}/decide
                             */
                            approval_id: string;
                            /** @description SHA-256 of the exact bytes of the content: 64 lowercase hexadecimal digits */
                            content_hash: string;
                            /** @description pending: no person decided yet; approved: may be published once; denied: a person refused it; consumed: the approval was spent; expired: nobody decided within 24 hours */
                            status: "pending" | "approved" | "denied" | "consumed" | "expired";
                        };
                    };
                };
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /**
                             * Format: uuid
                             * @description The approval request a person decides through POST /approvals/{id}/decide
                             */
                            approval_id: string;
                            /** @description SHA-256 of the exact bytes of the content: 64 lowercase hexadecimal digits */
                            content_hash: string;
                            /** @description pending: no person decided yet; approved: may be published once; denied: a person refused it; consumed: the approval was spent; expired: nobody decided within 24 hours */
                            status: "pending" | "approved" | "denied" | "consumed" | "expired";
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/approvals/content/reversal": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Record that published agent-authored content had to be pulled
         * @description Counts against the agent that wrote it (its track record's reversals_30d) and emits content.reversal_recorded whose actor is the reviewing person, with the agent in its data. 201 when recorded; 200 with the first record when this content's ask already has one. 404 when nobody in the organization asked about these bytes.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description SHA-256 of the exact bytes of the content: 64 lowercase hexadecimal digits */
                        content_hash: string;
                        /** @description Why it had to be pulled */
                        reason: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /**
                             * Format: uuid
                             * @description The agent that wrote the content
                             */
                            agent_id: string;
                            /**
                             * Format: uuid
                             * @description The ask that let the content out
                             */
                            approval_id: string;
                            /** @description SHA-256 of the exact bytes of the content: 64 lowercase hexadecimal digits */
                            content_hash: string;
                            reason: string;
                            /** Format: date-time */
                            recorded_at: string;
                            /** Format: uuid */
                            reversal_id: string;
                        };
                    };
                };
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /**
                             * Format: uuid
                             * @description The agent that wrote the content
                             */
                            agent_id: string;
                            /**
                             * Format: uuid
                             * @description The ask that let the content out
                             */
                            approval_id: string;
                            /** @description SHA-256 of the exact bytes of the content: 64 lowercase hexadecimal digits */
                            content_hash: string;
                            reason: string;
                            /** Format: date-time */
                            recorded_at: string;
                            /** Format: uuid */
                            reversal_id: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/approvals/content/track-record/{agent_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * An agent's earned-autonomy evidence: decided content asks, the approval rate's lower bound, reversals
         * @description `lower_bound` is the Wilson score lower bound (95 %, z = 1.96) of approvals / decided; the agent is `eligible` when it has at least `min_decided` decided asks, `lower_bound` reaches `bar`, and no reversal in 30 days; `unmet` lists the criteria it misses. 404 for an agent of another organization, like an unknown one.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    agent_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: uuid */
                            agent_id: string;
                            /** @description approvals / decided; null with none */
                            approval_rate: number | null;
                            approvals: number;
                            /** @description The lower bound must reach this */
                            bar: number;
                            confidence: number;
                            /** @description Content asks a person approved or denied */
                            decided: number;
                            denials: number;
                            /** @description Every criterion is met (unmet is empty) */
                            eligible: boolean;
                            /** @description Wilson score lower bound of the approval rate at 95 % confidence (z = 1.96); 0 with no decisions */
                            lower_bound: number;
                            /** @description Decided asks needed before the record counts */
                            min_decided: number;
                            /** @description Published content of this agent pulled in the last 30 days */
                            reversals_30d: number;
                            unmet: {
                                criterion: "min_decided" | "lower_bound" | "reversals_30d";
                                detail: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/change-password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Change the password; every other token stops working
         * @description 403 for a session through an organization’s SSO: it cannot change the account’s sign-in methods.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description 12 to 128 characters, not a common password */
                        current_password: string;
                        /** @description 12 to 128 characters, not a common password */
                        new_password: string;
                        /** @description Set the refresh token as an httpOnly cookie; the body then carries null */
                        use_cookie?: boolean;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-1"];
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/forgot-password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Mail a password-reset link
         * @description Always 202 with no rate headers; 403 with a reason while PASSWORD_RESET_ENABLED is off.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * Format: email
                         * @description Email address
                         */
                        email: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            status: "accepted";
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sign in with email and password
         * @description Answers a token pair, or `{mfa_required: true, mfa_token}` when the account has TOTP enrolled: complete it with `POST /mfa/challenge`. 403 when the organization requires SSO (owners pass as break-glass).
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description RFC 9449 proof: binds the issued tokens to its key */
                    dpop?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * Format: email
                         * @description Email address
                         */
                        email: string;
                        /** @description 12 to 128 characters, not a common password */
                        password: string;
                        tenant_slug: string;
                        /** @description Set the refresh token as an httpOnly cookie; the body then carries null */
                        use_cookie?: boolean;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-1"] | components["schemas"]["def-2"];
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** End the current session */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/magic-link": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Mail a sign-in link
         * @description Always 202 with the same body and no rate headers, whether or not the address is a member, the organization exists or allows magic links. A member gets a link valid about 15 minutes, usable once; it replaces their outstanding one. Issuance is capped silently per address and per source IP.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * Format: email
                         * @description Email address of the member
                         */
                        email: string;
                        /** @description The organization to sign in to */
                        tenant_slug: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            status: "accepted";
                        };
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/magic-link/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sign in with an emailed link
         * @description Answers a token pair (amr `mlink`), or `{mfa_required: true, mfa_token}` when the account has TOTP enrolled: complete it with `POST /mfa/challenge`. 401 `Invalid or expired link` alike for an unknown, expired, used or superseded link, an organization that turned magic links off and an account or membership no longer active; the link is used up either way. 403 when the organization requires SSO (owners pass as break-glass). A DPoP proof binds the tokens to its key.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description RFC 9449 proof: binds the issued tokens to its key */
                    dpop?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The token of the emailed link */
                        token: string;
                        /** @description Set the refresh token as an httpOnly cookie; the body then carries null */
                        use_cookie?: boolean;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-1"] | components["schemas"]["def-2"];
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/refresh": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate the refresh token and get a new pair
         * @description Send `refresh_token`, or an empty body to use (and rotate) the cookie; `use_cookie: true` with a body token answers in cookie mode too. A rotated refresh token presented again ends its whole session. A DPoP-bound session needs a proof under its key, without `ath`.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description RFC 9449 proof: binds the issued tokens to its key */
                    dpop?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        refresh_token?: string;
                        /** @description Set the refresh token as an httpOnly cookie; the body then carries null */
                        use_cookie?: boolean;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-1"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/resend-verification": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send the verification mail again
         * @description Always 202, whether or not the address has an account.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * Format: email
                         * @description Email address
                         */
                        email: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            status: "accepted";
                        };
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/reset-password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Set a new password with the emailed token
         * @description Every token issued before stops working. Not gated by PASSWORD_RESET_ENABLED.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description 12 to 128 characters, not a common password */
                        new_password: string;
                        /** @description The token of the emailed link */
                        token: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/sign-out-all": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * End every session of the account, everywhere
         * @description Bumps the revocation epoch: every earlier access and refresh token is refused on next use.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/signup": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create an account and its organization */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description RFC 9449 proof: binds the issued tokens to its key */
                    dpop?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * Format: email
                         * @description Email address
                         */
                        email: string;
                        organization_name: string;
                        /** @description 12 to 128 characters, not a common password */
                        password: string;
                        /** @description Set the refresh token as an httpOnly cookie; the body then carries null */
                        use_cookie?: boolean;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-1"];
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/signup/customer": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Register as a customer of an organization */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description RFC 9449 proof: binds the issued tokens to its key */
                    dpop?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * Format: email
                         * @description Email address
                         */
                        email: string;
                        /** @description 12 to 128 characters, not a common password */
                        password: string;
                        tenant_slug: string;
                        /** @description Set the refresh token as an httpOnly cookie; the body then carries null */
                        use_cookie?: boolean;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-1"];
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/signup/domain": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Join the organization of a verified domain with a new account
         * @description 400 weak password; 403 seat cap reached; 409 the address has an account or no open verified domain matches; 429.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** Format: email */
                        email: string;
                        /** @description 12 to 128 characters, not common */
                        password: string;
                        use_cookie?: boolean;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-1"];
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                            /** @description The separation-of-duties rule a refusal names */
                            rule?: string;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                            /** @description The separation-of-duties rule a refusal names */
                            rule?: string;
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                            /** @description The separation-of-duties rule a refusal names */
                            rule?: string;
                        };
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                            /** @description The separation-of-duties rule a refusal names */
                            rule?: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                            /** @description The separation-of-duties rule a refusal names */
                            rule?: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/signup/domain-check": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Whether an address may join an organization by its verified domain */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** Format: email */
                        email: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            eligible: boolean;
                            organization_name?: string;
                            tenant_slug?: string;
                        };
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                            /** @description The separation-of-duties rule a refusal names */
                            rule?: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                            /** @description The separation-of-duties rule a refusal names */
                            rule?: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/social/{provider}/callback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The provider’s redirect back (browser)
         * @description 302 to SIGN_IN_RETURN_URL with `social_code` (a sign-in: single use, 60 seconds, redeem it with `POST /auth/social/complete`), `social_linked=<provider>` (a link), or `social_error=true` for every failure alike. 404 when the provider is not configured.
         */
        get: {
            parameters: {
                query?: {
                    code?: string;
                    error?: string;
                    state?: string;
                };
                header?: never;
                path: {
                    /** @description A configured provider: `google` or `github` */
                    provider: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/social/{provider}/link/start": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start linking a provider account to the signed-in person
         * @description Sets an httpOnly, Secure, SameSite=Lax cookie that binds the round trip to this browser: it must come back to the callback in the same browser within about 10 minutes. The callback links what the provider answers to the person and session that started it (if that session is still live), and sends the browser to the app with `social_linked=<provider>`. 403 without a sign-in in the last 10 minutes (with the second factor when TOTP is on), from a session through an organization’s SSO, or when the organization turned social sign-in off; 404 when the provider is not configured.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description A configured provider: `google` or `github` */
                    provider: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Send the browser here: the provider’s sign-in */
                            authorization_url: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/social/{provider}/start": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start a social sign-in
         * @description Sets an httpOnly, Secure, SameSite=Lax cookie that binds the round trip to this browser: it must come back to the callback in the same browser within about 10 minutes. 404 when the provider is not configured. The same answer for an unknown organization and one that turned social sign-in off (that round trip ends in the error flag). 502 when the provider cannot be reached; 429 past 60 starts per 10 minutes from one address.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description A configured provider: `google` or `github` */
                    provider: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The organization to sign in to */
                        tenant_slug: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Send the browser here: the provider’s sign-in */
                            authorization_url: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/social/{provider}/unlink": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Unlink a provider account
         * @description 204. `password` is required when the account has one (400 when wrong or missing). 404 when the provider is not configured or not linked; 409 when it is the last way to sign in to an account without a password (other linked providers and passkeys count). 403 for a session through an organization’s SSO (as for link/start).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description A configured provider: `google` or `github` */
                    provider: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Required when the account has a password */
                        password?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/social/complete": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Redeem the one-time social sign-in code
         * @description A token pair (amr `social`), or `{mfa_required: true, mfa_token}` when the account has TOTP enrolled. 401 `Invalid or expired code` alike for an unknown, expired (60 seconds) or used code, an account or membership no longer active and social sign-in turned off. 403 when the organization requires SSO (owners pass as break-glass). A DPoP proof binds the tokens to its key.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description RFC 9449 proof: binds the issued tokens to its key */
                    dpop?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The `social_code` the callback sent to the app */
                        code: string;
                        /** @description Set the refresh token as an httpOnly cookie; the body then carries null */
                        use_cookie?: boolean;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-1"] | components["schemas"]["def-2"];
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/social/identities": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller’s linked provider accounts in this organization */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            identities: {
                                /** @description The address the provider vouched for */
                                email: string | null;
                                last_used_at: string | null;
                                /** Format: date-time */
                                linked_at: string;
                                provider: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/social/providers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The social providers this deployment configured */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            providers: string[];
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/sso/complete": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Redeem the one-time SSO code: what password login returns
         * @description A token pair (amr `sso`), or `{mfa_required: true, mfa_token}` when the account has TOTP enrolled. 401 `Invalid or expired code` alike for an unknown, expired (60 seconds) or used code and an account or membership no longer active. A DPoP proof binds the tokens to its key.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description RFC 9449 proof: binds the issued tokens to its key */
                    dpop?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The `sso_code` the callback sent to the app */
                        code: string;
                        /** @description Set the refresh token as an httpOnly cookie; the body then carries null */
                        use_cookie?: boolean;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-1"] | components["schemas"]["def-2"];
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/sso/link/confirm": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Confirm linking your account to an organization’s identity provider (the mailed link)
         * @description An identity provider asserted the address of an existing account (one its organization did not create, or an owner’s): only the account’s holder, by this link mailed to the account’s address, links it. 204 once linked (the next SSO sign-in signs the person in); 400 `Invalid or expired link` alike for an unknown, used or expired (30 minutes) link and an account whose address or membership changed since.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The token of the mailed link */
                        token: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/sso/oidc/{tenant}/backchannel-logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * OpenID Connect Back-Channel Logout from the organization’s identity provider
         * @description `application/x-www-form-urlencoded` with `logout_token`. 200 once the person’s SSO sessions ended (also when the token names nobody known); 400 `invalid_request` when the token fails validation (signature against the provider’s keys, `iss`, `aud`, `iat`, `jti`, the back-channel logout event, `sub` or `sid`, no `nonce`); 404 while the organization has no enabled OIDC connection. Register `{BASE_URL}/api/v1/auth/sso/oidc/{tenant id}/backchannel-logout` at the identity provider.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The organization’s id (UUID) */
                    tenant: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/x-www-form-urlencoded": {
                        /** @description OIDC Back-Channel Logout 1.0 logout token (JWT) */
                        logout_token?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/sso/oidc/{tenant}/callback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The identity provider’s redirect back (browser)
         * @description 302 to SIGN_IN_RETURN_URL with `sso_code` (single use, 60 seconds: redeem it with `POST /auth/sso/complete`), or with `sso_error=true` for every failure alike. Register `{BASE_URL}/api/v1/auth/sso/oidc/{tenant id}/callback` as the redirect URI at the identity provider.
         */
        get: {
            parameters: {
                query?: {
                    code?: string;
                    error?: string;
                    state?: string;
                };
                header?: never;
                path: {
                    /** @description The organization’s id (UUID) */
                    tenant: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/sso/saml/{tenant}/acs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Assertion Consumer Service (HTTP-POST binding, browser)
         * @description `application/x-www-form-urlencoded` with `SAMLResponse`. 303 to SIGN_IN_RETURN_URL with `sso_code` (single use, 60 seconds: redeem it with `POST /auth/sso/complete`), or with `sso_error=true` for every refusal alike (signature, issuer, audience, recipient, destination, time conditions, unknown or answered request, another browser, replayed assertion, no usable email, provisioning). 404 while the organization has no enabled SAML connection.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The organization’s id (UUID) */
                    tenant: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/x-www-form-urlencoded": {
                        RelayState?: string;
                        SAMLResponse?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            responses: {
                /** @description To SIGN_IN_RETURN_URL */
                303: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/sso/saml/{tenant}/metadata": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The service provider’s SAML 2.0 metadata for this organization
         * @description Entity id, ACS (HTTP-POST) and single logout (HTTP-Redirect), `application/samlmetadata+xml`. 404 while the organization has no SAML connection.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The organization’s id (UUID) */
                    tenant: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/sso/saml/{tenant}/slo": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Single logout from the identity provider (HTTP-Redirect binding, browser)
         * @description A signed LogoutRequest (`SAMLRequest`, `SigAlg` with SHA-256 or SHA-512, `Signature`, optional `RelayState`). Ends the live SSO sessions of the person it names, then 302 to the identity provider’s SingleLogoutService with the LogoutResponse. 400 when the request fails validation (unsigned, signature, issuer, destination, expired, replayed); 404 while the organization has no enabled SAML connection with an `slo_url`.
         */
        get: {
            parameters: {
                query?: {
                    RelayState?: string;
                    SAMLRequest?: string;
                    SAMLResponse?: string;
                    SigAlg?: string;
                    Signature?: string;
                };
                header?: never;
                path: {
                    /** @description The organization’s id (UUID) */
                    tenant: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description To the identity provider with the LogoutResponse */
                302: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/sso/saml/start": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start SAML single sign-on for an organization
         * @description Answers the identity provider’s URL with an AuthnRequest (HTTP-Redirect binding) and sets an httpOnly, Secure, SameSite=None cookie binding the round trip to this browser: the response must come back to the ACS in the same browser within about 10 minutes. 404 alike for an unknown organization and one without an enabled SAML connection (dormant); 429 past 60 SSO starts per 10 minutes from one address.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The organization to sign in to */
                        tenant_slug: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Send the browser here: the identity provider with the AuthnRequest */
                            authorization_url: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/sso/start": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start single sign-on for an organization
         * @description Protocol-agnostic: the organization’s enabled OIDC connection, else its SAML connection. Answers the identity provider’s URL and sets an httpOnly, Secure, SameSite=Lax cookie that binds the round trip to this browser (it must finish within about 10 minutes, in the same browser). 404 alike for an unknown organization and one without SSO (dormant); 502 when the provider’s metadata cannot be read; 429 past 60 starts per 10 minutes from one address.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The organization to sign in to */
                        tenant_slug: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Send the browser here: the identity provider’s sign-in */
                            authorization_url: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/verify-email": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Confirm an email address with the emailed token */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The token of the emailed link */
                        token: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/authz/catalog": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The role and permission catalogue
         * @description Public. With a credential (bearer token or API key) it also lists the caller's organization's custom roles (`custom: true`); a credential that does not resolve answers 401.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Changes whenever anything in the catalogue changes; approvals bind to it (Part B 9.4) */
                            catalogue_version: string;
                            permissions: {
                                code: string;
                                description: string;
                                read_only: boolean;
                                /** @description Compared with an agent's risk_ceiling: 0-30 reads, 31-59 one record, 60-79 part of the organization, 80-100 organization-wide, kill switches, autonomy, operator plane */
                                risk: number;
                            }[];
                            roles: {
                                code: string;
                                /** @description One of the caller's organization's custom roles */
                                custom: boolean;
                                description: string;
                                grantable: boolean;
                                name: string;
                                permissions: string[];
                                read_only: boolean;
                            }[];
                            /** @description Rules that keep one person from holding conflicting roles (docs/organizations.md) */
                            separation_of_duties: {
                                description: string;
                                id: string;
                            }[];
                            /** @description The same value as catalogue_version */
                            version: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/authz/roles": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The organization's custom roles, by code */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            code: string;
                            /** Format: date-time */
                            created_at: string;
                            description: string | null;
                            name: string;
                            /** @description Exactly what the role grants, sorted */
                            permissions: string[];
                            /** @description Every permission of the role is read-only: it opens no state-changing route */
                            read_only: boolean;
                            /** Format: date-time */
                            updated_at: string;
                        }[];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Create a custom role
         * @description 422 bad code syntax, a wildcard or a permission code neither in the catalogue nor declared by a bound OAuth resource of the organization; 409 a system role code or a code the organization already has; 403 a permission you do not hold (`tenant:manage` suffices for declared codes), or the organization awaits its onboarding approval.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Lowercase, 2 to 64 characters: a letter, then letters, digits, `_` or `-`; never a system role */
                        code: string;
                        description?: string;
                        /** @description Shown in the console and the catalogue */
                        name: string;
                        /** @description Exact permission codes of the catalogue (no wildcards), each one you hold yourself; every holder also keeps the baseline `identity:self:write` */
                        permissions: string[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            code: string;
                            /** Format: date-time */
                            created_at: string;
                            description: string | null;
                            name: string;
                            /** @description Exactly what the role grants, sorted */
                            permissions: string[];
                            /** @description Every permission of the role is read-only: it opens no state-changing route */
                            read_only: boolean;
                            /** Format: date-time */
                            updated_at: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/authz/roles/{code}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One custom role */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The custom role code */
                    code: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            code: string;
                            /** Format: date-time */
                            created_at: string;
                            description: string | null;
                            name: string;
                            /** @description Exactly what the role grants, sorted */
                            permissions: string[];
                            /** @description Every permission of the role is read-only: it opens no state-changing route */
                            read_only: boolean;
                            /** Format: date-time */
                            updated_at: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /**
         * Delete a custom role
         * @description 409 while a member or a pending invitation holds it; 404 unknown role.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The custom role code */
                    code: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /**
         * Change a custom role: its holders get the new permissions on their next request
         * @description Any of `name`, `description`, `permissions` (the whole new set). Added permissions must be ones you hold (403); 422 a wildcard or an unknown code; 404 unknown role.
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The custom role code */
                    code: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        description?: string | null;
                        /** @description Shown in the console and the catalogue */
                        name?: string;
                        /** @description Exact permission codes of the catalogue (no wildcards), each one you hold yourself; every holder also keeps the baseline `identity:self:write` */
                        permissions?: string[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            code: string;
                            /** Format: date-time */
                            created_at: string;
                            description: string | null;
                            name: string;
                            /** @description Exactly what the role grants, sorted */
                            permissions: string[];
                            /** @description Every permission of the role is read-only: it opens no state-changing route */
                            read_only: boolean;
                            /** Format: date-time */
                            updated_at: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/v1/autonomy/decisions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The autonomy ledger, newest first
         * @description `mode` filters; `limit` 1 to 200 (default 50). The platform operator reads every organization.
         */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    mode?: "dry_run" | "shadow" | "proposed" | "denied" | "expired" | "executing" | "executed" | "reversed";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            decisions: {
                                action_id: string;
                                /** @description A proposal a person with the permissions can approve */
                                actionable: boolean;
                                adjudication: "none" | "pending" | "approved" | "denied" | "automatic";
                                blast_class: "contain_source" | "contain_non_human" | "raise_assurance" | "revoke_access" | "disable_principal";
                                /** Format: date-time */
                                created_at: string;
                                decided_at: string | null;
                                decided_by: string | null;
                                decision_reason: string | null;
                                /**
                                 * Format: uuid
                                 * @description The detection group occurrence that fed it
                                 */
                                detection_id: string;
                                /** @description One-sentence plan */
                                effect: string;
                                executed_at: string | null;
                                /** Format: uuid */
                                id: string;
                                level: "manual" | "recommend" | "graduated" | "full";
                                mode: "dry_run" | "shadow" | "proposed" | "denied" | "expired" | "executing" | "executed" | "reversed";
                                revert_reason: string | null;
                                reverted_at: string | null;
                                /** @description Executed and undoable */
                                revertible: boolean;
                                rule_id: string;
                                target_id: string;
                                /** Format: uuid */
                                tenant_id: string;
                                /** @description Run by the engine without a person */
                                unattended: boolean;
                            }[];
                            viewer_scope: "tenant" | "platform";
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/autonomy/decisions/{id}/adjudicate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Approve or deny a proposal
         * @description Needs `autonomy:approve` and the action's own permission (`tenant:manage` to end sessions, `agents:manage` to engage a kill switch). The verdict is recorded first; an approval then executes with every guard re-checked: a changed world gives `expired` with `executed: false` and the reason. 409 when not awaiting a verdict.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        approve: boolean;
                        reason?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            decision: {
                                action_id: string;
                                /** @description A proposal a person with the permissions can approve */
                                actionable: boolean;
                                adjudication: "none" | "pending" | "approved" | "denied" | "automatic";
                                blast_class: "contain_source" | "contain_non_human" | "raise_assurance" | "revoke_access" | "disable_principal";
                                /** Format: date-time */
                                created_at: string;
                                decided_at: string | null;
                                decided_by: string | null;
                                decision_reason: string | null;
                                /**
                                 * Format: uuid
                                 * @description The detection group occurrence that fed it
                                 */
                                detection_id: string;
                                /** @description One-sentence plan */
                                effect: string;
                                executed_at: string | null;
                                /** Format: uuid */
                                id: string;
                                level: "manual" | "recommend" | "graduated" | "full";
                                mode: "dry_run" | "shadow" | "proposed" | "denied" | "expired" | "executing" | "executed" | "reversed";
                                revert_reason: string | null;
                                reverted_at: string | null;
                                /** @description Executed and undoable */
                                revertible: boolean;
                                rule_id: string;
                                target_id: string;
                                /** Format: uuid */
                                tenant_id: string;
                                /** @description Run by the engine without a person */
                                unattended: boolean;
                            };
                            executed: boolean;
                            outcome: "dry_run" | "shadow" | "proposed" | "denied" | "expired" | "executing" | "executed" | "reversed";
                            reason: string | null;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/autonomy/decisions/{id}/revert": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Revert an executed decision
         * @description Needs `autonomy:approve` and the permission to undo the action yourself; a contain_non_human revert is a person's only (403 otherwise). 409 with nothing changed when superseded. A reversal holds the class below unattended operation for 30 days.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        reason: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            decision: {
                                action_id: string;
                                /** @description A proposal a person with the permissions can approve */
                                actionable: boolean;
                                adjudication: "none" | "pending" | "approved" | "denied" | "automatic";
                                blast_class: "contain_source" | "contain_non_human" | "raise_assurance" | "revoke_access" | "disable_principal";
                                /** Format: date-time */
                                created_at: string;
                                decided_at: string | null;
                                decided_by: string | null;
                                decision_reason: string | null;
                                /**
                                 * Format: uuid
                                 * @description The detection group occurrence that fed it
                                 */
                                detection_id: string;
                                /** @description One-sentence plan */
                                effect: string;
                                executed_at: string | null;
                                /** Format: uuid */
                                id: string;
                                level: "manual" | "recommend" | "graduated" | "full";
                                mode: "dry_run" | "shadow" | "proposed" | "denied" | "expired" | "executing" | "executed" | "reversed";
                                revert_reason: string | null;
                                reverted_at: string | null;
                                /** @description Executed and undoable */
                                revertible: boolean;
                                rule_id: string;
                                target_id: string;
                                /** Format: uuid */
                                tenant_id: string;
                                /** @description Run by the engine without a person */
                                unattended: boolean;
                            };
                            detail: string;
                            reverted: boolean;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/autonomy/drill": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Soak drill (platform operator): synthetic detections replayed in shadow
         * @description Synthetic detections of every trigger, 100 per class and level on distinct targets, replayed through the engine's decision rule and live guards (kill switches, rate and spread caps, reversal breaker, graduation) of the operator's organization, in shadow: nothing is recorded or executed. Per class and level: executed, proposed, dry_run, and held_by guard.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            classes: {
                                blast_class: "contain_source" | "contain_non_human" | "raise_assurance" | "revoke_access" | "disable_principal";
                                graduated: boolean;
                                /** @description The levels the class accepts (up to its ceiling) */
                                levels: ("manual" | "recommend" | "graduated" | "full")[];
                                rate_cap: number;
                                /** @description Per level */
                                soak: {
                                    [key: string]: {
                                        detections: number;
                                        dry_run: number;
                                        /** @description Would have run (unattended) within every guard */
                                        executed: number;
                                        /** @description Of the proposed, those a guard held back from running unattended, by guard */
                                        held_by: {
                                            kill_switch: number;
                                            rate_cap: number;
                                            reversal_breaker: number;
                                            spread_cap: number;
                                        };
                                        /** @description Would have waited for a person's verdict (held ones included) */
                                        proposed: number;
                                    };
                                };
                                spread_cap: number;
                                triggers: {
                                    action_id: string;
                                    attacker_trippable: boolean;
                                    effect: string;
                                    rule_id: string;
                                    /** @description Per level: what one detection would do now */
                                    would: {
                                        [key: string]: "dry_run" | "proposed" | "executed";
                                    };
                                }[];
                            }[];
                            detections_per_soak: number;
                            execution_enabled: boolean;
                            kill_switch: {
                                engaged: boolean;
                                until: string | null;
                            };
                            /** @enum {string} */
                            mode: "shadow";
                            /** Format: date-time */
                            ran_at: string;
                            /**
                             * Format: uuid
                             * @description The organization whose live guards applied
                             */
                            tenant_id: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/autonomy/graduation": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Each class's graduation against its bar (own organization only; no disable_principal entry) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            classes: {
                                [key: string]: {
                                    approvals: number;
                                    approvals_needed: number | null;
                                    bar: number;
                                    /** @description Detection rules that feed the class */
                                    catalogue: string[];
                                    eligible: boolean;
                                    lower_bound: number;
                                    min_days: number;
                                    reversals_recent: number;
                                    span_days: number;
                                    total: number;
                                    unmet: string[];
                                };
                            };
                            window_days: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/autonomy/kill-switch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The autonomy kill switch */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            engaged: boolean;
                            indefinite: boolean;
                            offered_hours: number[];
                            reason: string | null;
                            scope: "global" | "tenant";
                            until: string | null;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Engage (for 1, 8 or 24 hours, or indefinitely with a reason) or release the kill switch
         * @description Stored as the expiry `autonomy.disabled_until` (it re-arms by itself); 400 for other hours or an indefinite stop without a reason. Each change raises a critical detection. Releasing is a person's only.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description true engages the kill switch (autonomy stops), false releases it */
                        enable: boolean;
                        /** @description 1, 8 or 24; omitted: indefinite, which needs a reason */
                        hours?: number;
                        reason?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            engaged: boolean;
                            indefinite: boolean;
                            offered_hours: number[];
                            reason: string | null;
                            scope: "global" | "tenant";
                            until: string | null;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/autonomy/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Ledger metrics: modes, execution latency, caps used, pending proposals */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            by_mode: {
                                [key: string]: number;
                            };
                            classes: {
                                [key: string]: {
                                    rate_cap: number;
                                    rate_used: number;
                                    spread_cap: number;
                                    spread_used: number;
                                };
                            };
                            execution_latency_seconds: {
                                executed_30d: number;
                                mean: number | null;
                                p95: number | null;
                            };
                            pending: {
                                actionable: number;
                                count: number;
                                oldest_age_seconds: number | null;
                            };
                            unattended_30d: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/command/audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Audit entries, newest first
         * @description Entries of the hash-chained audit log with `compliance_tags` and `entry_hash`, filtered by `action` and `actor_id`; your organization only (the platform operator: every organization, or `tenant_id`). `limit` 1 to 1000 (default 100).
         */
        get: {
            parameters: {
                query?: {
                    action?: string;
                    actor_id?: string;
                    /** @description The `next_cursor` of the previous page: the older entries after it */
                    cursor?: string;
                    limit?: number;
                    /** @description Platform operator: one organization (absent: every organization). Others: their own only, else 403 */
                    tenant_id?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Newest (highest seq) first */
                            entries: {
                                action: string;
                                actor_id: string;
                                actor_type: string;
                                /** @description Controls this entry evidences, e.g. soc2:CC6.1 */
                                compliance_tags: string[];
                                correlation_id: string | null;
                                data: {
                                    [key: string]: unknown;
                                };
                                /** @description SHA-256 (hex) of prev_hash, a newline, and the canonical JSON (keys sorted at every level, no whitespace) of the other fields */
                                entry_hash: string;
                                /** Format: uuid */
                                event_id: string;
                                /** Format: date-time */
                                occurred_at: string;
                                outcome: string;
                                prev_hash: string;
                                /** @description Position in the one chain, from 1 at genesis */
                                seq: number;
                                tenant_id: string | null;
                            }[];
                            /** @description Pass as `cursor` (with the same filters) for older entries; null when there are none */
                            next_cursor: string | null;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/command/audit/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Verify the whole audit chain from genesis (platform operator)
         * @description Recomputes every entry hash and link from genesis across every organization. `broken_seq` names the first entry that does not hold. Needs membership of the platform-operator organization besides `command:read` (403 otherwise).
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description The first entry whose hash or link does not hold (altered, removed or reordered); null when verified */
                            broken_seq: number | null;
                            /** @description Entries found intact, from genesis */
                            entries: number;
                            verified: boolean;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/command/compliance/controls": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The control catalogue per framework (SOC 2, ISO 27001, GDPR): what evidences each control */
        get: {
            parameters: {
                query?: {
                    /** @description soc2, iso27001 or gdpr; a missing or unknown one is 422 listing them */
                    framework?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            frameworks: {
                                controls: {
                                    evidence: {
                                        /** @description So do audit entries of these event actions */
                                        actions: string[];
                                        /** @description Settings that must hold these values for the control to be satisfied */
                                        settings: {
                                            expected: boolean | number | string;
                                            key: string;
                                            why: string;
                                        }[];
                                        /** @description Audit entries carrying this tag evidence the control */
                                        tag: string;
                                    };
                                    /** @description The control's id in its framework (CC6.1, A.8.5, Art.30) */
                                    id: string;
                                    /** @description The compliance tag audit entries carry for it (`soc2:CC6.1`) */
                                    tag: string;
                                    title: string;
                                }[];
                                framework: string;
                                name: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/command/compliance/evidence": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Evidence for one framework over the last `days` days: readiness, gaps, and per control the newest audit entries (all with export=true) with their hashes */
        get: {
            parameters: {
                query?: {
                    days?: number;
                    /** @description true: every evidencing entry per control, not only the newest 3 */
                    export?: boolean;
                    /** @description soc2, iso27001 or gdpr; a missing or unknown one is 422 listing them */
                    framework?: string;
                    /** @description Read one organization: your own, or (platform operator only) another; another organization's gives 403 to everyone else. Without it the platform operator reads every organization, anyone else their own */
                    tenant_id?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            controls: {
                                /** @description Audit entries in the window evidencing it */
                                evidence_count: number;
                                gaps: string[];
                                id: string;
                                /** @description Newest first: 3 at most, every one with export=true */
                                samples: {
                                    action: string;
                                    actor: {
                                        id: string;
                                        type: string;
                                    };
                                    compliance_tags: string[];
                                    /** @description The audit entry's hash (GET /command/audit shows the same) */
                                    entry_hash: string;
                                    /** Format: uuid */
                                    event_id: string;
                                    /** Format: date-time */
                                    occurred_at: string;
                                    outcome: string;
                                    /** @description The audit entry's sequence number in the chain */
                                    seq: number;
                                }[];
                                satisfied: boolean;
                                settings: {
                                    expected: boolean | number | string;
                                    holds: boolean;
                                    key: string;
                                    /** @description The audit entry of its latest change; null: never changed (the default) */
                                    last_change: {
                                        entry_hash: string;
                                        /** Format: date-time */
                                        occurred_at: string;
                                        seq: number;
                                    } | null;
                                    value: (boolean | number | string) | null;
                                    why: string;
                                }[];
                                tag: string;
                                title: string;
                            }[];
                            controls_total: number;
                            days: number;
                            export: boolean;
                            framework: string;
                            framework_name: string;
                            gaps: {
                                control: string;
                                /** @description Why the control is not satisfied */
                                reasons: string[];
                                tag: string;
                                title: string;
                            }[];
                            /** Format: date-time */
                            generated_at: string;
                            /** @description Satisfied controls over all controls, in percent (one decimal) */
                            readiness_pct: number;
                            /** @description How many controls are satisfied */
                            satisfied: number;
                            /** Format: date-time */
                            since: string;
                            /** Format: uuid */
                            tenant_id: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/command/compliance/report": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Readiness report for one framework: readiness_pct, satisfied versus gaps, open incidents, posture */
        get: {
            parameters: {
                query?: {
                    days?: number;
                    /** @description soc2, iso27001 or gdpr; a missing or unknown one is 422 listing them */
                    framework?: string;
                    /** @description Read one organization: your own, or (platform operator only) another; another organization's gives 403 to everyone else. Without it the platform operator reads every organization, anyone else their own */
                    tenant_id?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            controls_total: number;
                            days: number;
                            framework: string;
                            framework_name: string;
                            gap_count: number;
                            gaps: {
                                control: string;
                                /** @description Why the control is not satisfied */
                                reasons: string[];
                                tag: string;
                                title: string;
                            }[];
                            /** Format: date-time */
                            generated_at: string;
                            /** @description The organization's unresolved incidents */
                            open_incidents: {
                                by_severity: {
                                    count: number;
                                    /** @description Severity, lowest to highest: info, low, warn, high, critical */
                                    severity: "info" | "low" | "warn" | "high" | "critical";
                                }[];
                                /** @description Unresolved incidents (open, investigating, contained), however old */
                                count: number;
                                oldest_age_seconds: number | null;
                                oldest_opened_at: string | null;
                            };
                            /** @description at_risk: readiness below 50% or an unresolved critical incident; needs_attention: readiness below 90% or an unresolved high incident; strong otherwise */
                            posture: "strong" | "needs_attention" | "at_risk";
                            /** @description Satisfied controls over all controls, in percent (one decimal) */
                            readiness_pct: number;
                            /** @description Ids of the satisfied controls */
                            satisfied: string[];
                            satisfied_count: number;
                            /** Format: date-time */
                            since: string;
                            /** Format: uuid */
                            tenant_id: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/command/detections": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List detections (deduplicated groups), newest first; filters compose */
        get: {
            parameters: {
                query?: {
                    /** @description Groups keyed on this principal: group key `actor:<id>` or `agent:<id>` */
                    actor_id?: string;
                    limit?: number;
                    /** @description A rule id, exactly */
                    rule_id?: string;
                    /** @description Severity, lowest to highest: info, low, warn, high, critical */
                    severity?: "info" | "low" | "warn" | "high" | "critical";
                    status?: "open" | "acknowledged" | "resolved";
                    /** @description Read one organization: your own, or (platform operator only) another; another organization's gives 403 to everyone else. Without it the platform operator reads every organization, anyone else their own */
                    tenant_id?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Newest first: by `last_seen`, then by id */
                            detections: {
                                /** @description Hits counted on this group while it was open */
                                count: number;
                                /** @description What the rule recorded on its latest hit */
                                data: {
                                    [key: string]: unknown;
                                };
                                /** Format: date-time */
                                first_seen: string;
                                /** @description What makes two hits one detection: `actor:<user id>`, `agent:<agent id>`, `setting:<key>`… */
                                group_key: string;
                                /** Format: uuid */
                                id: string;
                                /** Format: date-time */
                                last_seen: string;
                                /** @description The operator's note when settling it */
                                note: string | null;
                                rule_id: string;
                                /** @description Severity, lowest to highest: info, low, warn, high, critical */
                                severity: "info" | "low" | "warn" | "high" | "critical";
                                status: "open" | "acknowledged" | "resolved";
                                /** @description null for a platform-level detection (no organization) */
                                tenant_id: string | null;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/command/detections/{id}/acknowledge": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Acknowledge (default) or resolve one of your organization's detections, with an optional note; audited */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        note?: string;
                        /** @description acknowledged (default) or resolved */
                        status?: "acknowledged" | "resolved";
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Hits counted on this group while it was open */
                            count: number;
                            /** @description What the rule recorded on its latest hit */
                            data: {
                                [key: string]: unknown;
                            };
                            /** Format: date-time */
                            first_seen: string;
                            /** @description What makes two hits one detection: `actor:<user id>`, `agent:<agent id>`, `setting:<key>`… */
                            group_key: string;
                            /** Format: uuid */
                            id: string;
                            /** Format: date-time */
                            last_seen: string;
                            /** @description The operator's note when settling it */
                            note: string | null;
                            rule_id: string;
                            /** @description Severity, lowest to highest: info, low, warn, high, critical */
                            severity: "info" | "low" | "warn" | "high" | "critical";
                            status: "open" | "acknowledged" | "resolved";
                            /** @description null for a platform-level detection (no organization) */
                            tenant_id: string | null;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/command/detections/summary": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Detections seen in the last `days` days, rolled up by severity and by rule, with open counts */
        get: {
            parameters: {
                query?: {
                    days?: number;
                    /** @description Read one organization: your own, or (platform operator only) another; another organization's gives 403 to everyone else. Without it the platform operator reads every organization, anyone else their own */
                    tenant_id?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Rules seen in the window: most open first, then most groups, then rule id */
                            by_rule: {
                                /** @description Detections (deduplicated groups) seen in the window */
                                groups: number;
                                /** Format: date-time */
                                last_seen: string;
                                /** @description Hits counted on those groups */
                                occurrences: number;
                                /** @description Of those, still open */
                                open: number;
                                rule_id: string;
                                /** @description Severity, lowest to highest: info, low, warn, high, critical */
                                severity: "info" | "low" | "warn" | "high" | "critical";
                            }[];
                            /** @description Every severity, critical first */
                            by_severity: {
                                /** @description Detections (deduplicated groups) seen in the window */
                                groups: number;
                                /** @description Hits counted on those groups */
                                occurrences: number;
                                /** @description Of those, still open */
                                open: number;
                                /** @description Severity, lowest to highest: info, low, warn, high, critical */
                                severity: "info" | "low" | "warn" | "high" | "critical";
                            }[];
                            days: number;
                            /** @description Detections (deduplicated groups) seen in the window */
                            groups: number;
                            /** @description Of those, still open */
                            open: number;
                            /** Format: date-time */
                            since: string;
                            /** @description The organization summarized; null: every organization (platform operator) */
                            tenant_id: string | null;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/command/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Events, newest first; every filter composes
         * @description The Command Center event envelopes of your organization (the platform operator: every organization, or the one `tenant_id` names). `limit` 1 to 1000 (default 100); more is 422. An `actor_id` outside 1 to 64 characters or an unknown `actor_type` is 422.
         */
        get: {
            parameters: {
                query?: {
                    action?: string;
                    /** @description The envelope's actor.id */
                    actor_id?: string;
                    actor_type?: "human" | "agent" | "service" | "system";
                    category?: string;
                    correlation_id?: string;
                    /** @description The `next_cursor` of the previous page: the older events after it */
                    cursor?: string;
                    limit?: number;
                    /** @description Exactly this severity */
                    severity?: "info" | "low" | "warn" | "high" | "critical";
                    /** @description Events at or after this instant */
                    since?: string;
                    /** @description An organization: your own, or (platform operator only) any one; another organization gives 403 otherwise. Absent: your organization, or every organization for the platform operator. */
                    tenant_id?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Newest first */
                            events: {
                                /** @description An event type of the catalogue (resource.past_verb) */
                                action: string;
                                actor: {
                                    id: string;
                                    type: "human" | "agent" | "service" | "system";
                                };
                                category: string;
                                correlation_id: string | null;
                                data: {
                                    [key: string]: unknown;
                                };
                                /** Format: uuid */
                                id: string;
                                outcome: "success" | "failure" | "denied";
                                severity: "info" | "low" | "warn" | "high" | "critical";
                                /** @description Null for platform-level events */
                                tenant_id: string | null;
                                /** Format: date-time */
                                timestamp: string;
                            }[];
                            /** @description Pass as `cursor` (with the same filters) for older events; null when there are none */
                            next_cursor: string | null;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/command/events/by-actor": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Activity per principal over the last days
         * @description Attribution by the envelope's actor. Per principal: `total`, `by_outcome`, `elevated` (at or above warn), `first_seen`, `last_seen`; ordered by volume then actor_id, the 100 busiest shown; `total`, `shown` and `hidden` count principals. `actor_type` defaults to agent, `days` 1 to 90 (default 7).
         */
        get: {
            parameters: {
                query?: {
                    /** @description Default agent */
                    actor_type?: "human" | "agent" | "service" | "system";
                    days?: number;
                    /** @description An organization: your own, or (platform operator only) any one; another organization gives 403 otherwise. Absent: your organization, or every organization for the platform operator. */
                    tenant_id?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            actor_type: "human" | "agent" | "service" | "system";
                            days: number;
                            /** @description Principals beyond those shown */
                            hidden: number;
                            /** @description By volume, then actor_id; the 100 busiest at most */
                            principals: {
                                actor_id: string;
                                by_outcome: {
                                    denied: number;
                                    failure: number;
                                    success: number;
                                };
                                /** @description Events at or above warn */
                                elevated: number;
                                /** Format: date-time */
                                first_seen: string;
                                /** Format: date-time */
                                last_seen: string;
                                /** @description Events attributed to this principal in the window */
                                total: number;
                            }[];
                            shown: number;
                            /** Format: date-time */
                            since: string;
                            /** @description Principals of this actor type with events in the window */
                            total: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/command/events/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The live event stream (Server-Sent Events)
         * @description Authenticated by the Authorization header. `text/event-stream` from the live tip: a `: stream open` comment once subscribed, then one `data:` line per event envelope in scope (committed on any node), and a `: keepalive` comment every 15 s. No event ids and no resume. A consumer that leaves more than 1024 KiB unread has its stream closed; a stream also ends when the service stops, after an access-token lifetime, or when delivery between nodes was interrupted: connect again.
         */
        get: {
            parameters: {
                query?: {
                    /** @description An organization: your own, or (platform operator only) any one; another organization gives 403 otherwise. Absent: your organization, or every organization for the platform operator. */
                    tenant_id?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The event stream */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/event-stream": string;
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/event-stream": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/event-stream": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/event-stream": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/event-stream": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/event-stream": components["schemas"]["def-0"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/command/findings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Findings: what the analyses conclude from the records (read only)
         * @description Computed on every read from the events and detections of your organization (the platform operator: every organization, or `tenant_id`). `source` analyst (default) or detection; `limit` 1 to 500 (default 50).
         */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    /** @description Findings of exactly this severity */
                    severity?: "info" | "low" | "warn" | "high" | "critical";
                    /** @description analyst (default): adverse activity per principal and action over the last 7 days; detection: detections still open or acknowledged */
                    source?: "analyst" | "detection";
                    /** @description Platform operator: one organization (absent: every organization). Others: their own only, else 403 */
                    tenant_id?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Most severe first, then the most recently seen */
                            findings: {
                                by_outcome: {
                                    denied: number;
                                    failure: number;
                                    success: number;
                                } | null;
                                count: number;
                                detection_id: string | null;
                                /** @description Its newest events (analyst), at most 5 */
                                event_ids: string[];
                                /** Format: date-time */
                                first_seen: string;
                                /** @description Stable: the same activity or detection is the same finding on every read */
                                id: string;
                                /** Format: date-time */
                                last_seen: string;
                                severity: "info" | "low" | "warn" | "high" | "critical";
                                /** @description The event action (analyst) or the detection rule id (detection) */
                                signal: string;
                                source: "analyst" | "detection";
                                /** @description The detection's status (detection); null for the analyst's */
                                status: "open" | "acknowledged" | null;
                                /** @description <actor type>:<actor id> (analyst) or the detection group key (detection) */
                                subject: string;
                                tenant_id: string | null;
                                title: string;
                            }[];
                            source: "analyst" | "detection";
                            /** @description The history the analyst read */
                            window_days: number | null;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/command/incidents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List incidents, newest first; filters compose */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    /** @description Severity, lowest to highest: info, low, warn, high, critical */
                    severity?: "info" | "low" | "warn" | "high" | "critical";
                    /** @description open -> investigating | contained | resolved | closed; investigating -> contained | resolved | closed; contained -> investigating | resolved | closed; resolved -> investigating | closed; closed is final */
                    status?: "open" | "investigating" | "contained" | "resolved" | "closed";
                    /** @description Read one organization: your own, or (platform operator only) another; another organization's gives 403 to everyone else. Without it the platform operator reads every organization, anyone else their own */
                    tenant_id?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Newest first: by `created_at`, then by id */
                            incidents: {
                                assignee: string | null;
                                closed_at: string | null;
                                containment: string | null;
                                /** Format: date-time */
                                created_at: string;
                                description: string | null;
                                detection_ids: string[];
                                /** Format: uuid */
                                id: string;
                                /** @description The actor who opened it */
                                opened_by: {
                                    id: string;
                                    type: string;
                                };
                                remediation: string | null;
                                /** @description When it was last resolved */
                                resolved_at: string | null;
                                root_cause: string | null;
                                /** @description Severity, lowest to highest: info, low, warn, high, critical */
                                severity: "info" | "low" | "warn" | "high" | "critical";
                                /** @description open -> investigating | contained | resolved | closed; investigating -> contained | resolved | closed; contained -> investigating | resolved | closed; resolved -> investigating | closed; closed is final */
                                status: "open" | "investigating" | "contained" | "resolved" | "closed";
                                /** Format: uuid */
                                tenant_id: string;
                                title: string;
                                /** Format: date-time */
                                updated_at: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        put?: never;
        /** Open an incident in your organization over its detections (at most 100); audited */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The user id of an active workforce member of your organization (else 422); null: nobody */
                        assignee?: string | null;
                        /** @description What happened, as known when opening it */
                        description?: string | null;
                        /** @description Your organization's detections this incident gathers (at most 100); a malformed, unknown or another organization's id is 422 naming it */
                        detection_ids?: string[];
                        /** @description Severity, lowest to highest: info, low, warn, high, critical */
                        severity: "info" | "low" | "warn" | "high" | "critical";
                        title: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            assignee: string | null;
                            closed_at: string | null;
                            containment: string | null;
                            /** Format: date-time */
                            created_at: string;
                            description: string | null;
                            detection_ids: string[];
                            /** Format: uuid */
                            id: string;
                            /** @description The actor who opened it */
                            opened_by: {
                                id: string;
                                type: string;
                            };
                            remediation: string | null;
                            /** @description When it was last resolved */
                            resolved_at: string | null;
                            root_cause: string | null;
                            /** @description Severity, lowest to highest: info, low, warn, high, critical */
                            severity: "info" | "low" | "warn" | "high" | "critical";
                            /** @description open -> investigating | contained | resolved | closed; investigating -> contained | resolved | closed; contained -> investigating | resolved | closed; resolved -> investigating | closed; closed is final */
                            status: "open" | "investigating" | "contained" | "resolved" | "closed";
                            /** Format: uuid */
                            tenant_id: string;
                            title: string;
                            /** Format: date-time */
                            updated_at: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/command/incidents/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Change an incident of your organization: status (allowed moves only, else 409), assignee, containment, remediation, root cause; audited */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The user id of an active workforce member of your organization (else 422); null: nobody */
                        assignee?: string | null;
                        /** @description What was done to stop the incident spreading */
                        containment?: string | null;
                        /** @description What was done to remove its cause and recover */
                        remediation?: string | null;
                        /** @description Why it happened */
                        root_cause?: string | null;
                        /** @description open -> investigating | contained | resolved | closed; investigating -> contained | resolved | closed; contained -> investigating | resolved | closed; resolved -> investigating | closed; closed is final */
                        status?: "open" | "investigating" | "contained" | "resolved" | "closed";
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            assignee: string | null;
                            closed_at: string | null;
                            containment: string | null;
                            /** Format: date-time */
                            created_at: string;
                            description: string | null;
                            detection_ids: string[];
                            /** Format: uuid */
                            id: string;
                            /** @description The actor who opened it */
                            opened_by: {
                                id: string;
                                type: string;
                            };
                            remediation: string | null;
                            /** @description When it was last resolved */
                            resolved_at: string | null;
                            root_cause: string | null;
                            /** @description Severity, lowest to highest: info, low, warn, high, critical */
                            severity: "info" | "low" | "warn" | "high" | "critical";
                            /** @description open -> investigating | contained | resolved | closed; investigating -> contained | resolved | closed; contained -> investigating | resolved | closed; resolved -> investigating | closed; closed is final */
                            status: "open" | "investigating" | "contained" | "resolved" | "closed";
                            /** Format: uuid */
                            tenant_id: string;
                            title: string;
                            /** Format: date-time */
                            updated_at: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/v1/command/incidents/summary": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Incidents opened in the last `days` days by status and severity, and the whole unresolved backlog */
        get: {
            parameters: {
                query?: {
                    days?: number;
                    /** @description Read one organization: your own, or (platform operator only) another; another organization's gives 403 to everyone else. Without it the platform operator reads every organization, anyone else their own */
                    tenant_id?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Every severity, critical first */
                            by_severity: {
                                count: number;
                                /** @description Severity, lowest to highest: info, low, warn, high, critical */
                                severity: "info" | "low" | "warn" | "high" | "critical";
                            }[];
                            /** @description Incidents opened in the window, by their status now */
                            by_status: {
                                count: number;
                                /** @description open -> investigating | contained | resolved | closed; investigating -> contained | resolved | closed; contained -> investigating | resolved | closed; resolved -> investigating | closed; closed is final */
                                status: "open" | "investigating" | "contained" | "resolved" | "closed";
                            }[];
                            days: number;
                            /** Format: date-time */
                            since: string;
                            /** @description The organization summarized; null: every organization (platform operator) */
                            tenant_id: string | null;
                            /** @description Incidents opened in the window */
                            total: number;
                            /** @description The whole backlog: ignores the window */
                            unresolved: {
                                /** @description Every severity, critical first */
                                by_severity: {
                                    count: number;
                                    /** @description Severity, lowest to highest: info, low, warn, high, critical */
                                    severity: "info" | "low" | "warn" | "high" | "critical";
                                }[];
                                /** @description Every incident open, investigating or contained, however old */
                                count: number;
                                /** @description Age of the oldest unresolved incident; null when there is none */
                                oldest_age_seconds: number | null;
                                oldest_opened_at: string | null;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/consent": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller’s current consent state per purpose */
        get: {
            parameters: {
                query?: {
                    /** @description The `next_cursor` of the previous page: the rows after it */
                    cursor?: string;
                    limit?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            consents: {
                                consent_type: string;
                                granted: boolean;
                                state: "granted" | "withdrawn";
                                /** Format: date-time */
                                updated_at: string;
                            }[];
                            /** @description Pass as `cursor` for the next page; null on the last one */
                            next_cursor: string | null;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/consent/{consent_type}/grant": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Grant consent for a purpose (idempotent) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Purpose slug */
                    consent_type: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            consent_type: string;
                            granted: boolean;
                            state: "granted" | "withdrawn";
                            /** Format: date-time */
                            updated_at: string;
                        } & {
                            /** @description false when the consent already was in this state */
                            changed: boolean;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/consent/{consent_type}/withdraw": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Withdraw consent for a purpose (idempotent) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Purpose slug */
                    consent_type: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            consent_type: string;
                            granted: boolean;
                            state: "granted" | "withdrawn";
                            /** Format: date-time */
                            updated_at: string;
                        } & {
                            /** @description false when the consent already was in this state */
                            changed: boolean;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/consent/admin": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Owner review: current consent state across the organization */
        get: {
            parameters: {
                query?: {
                    /** @description Purpose slug */
                    consent_type?: string;
                    /** @description The `next_cursor` of the previous page: the rows after it */
                    cursor?: string;
                    limit?: number;
                    user_id?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            consents: ({
                                /** Format: uuid */
                                user_id: string;
                            } & {
                                consent_type: string;
                                granted: boolean;
                                state: "granted" | "withdrawn";
                                /** Format: date-time */
                                updated_at: string;
                            })[];
                            /** @description Pass as `cursor` for the next page; null on the last one */
                            next_cursor: string | null;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/consent/admin/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Owner review: consent changes across the organization, newest first */
        get: {
            parameters: {
                query?: {
                    /** @description Purpose slug */
                    consent_type?: string;
                    /** @description The `next_cursor` of the previous page: the rows after it */
                    cursor?: string;
                    limit?: number;
                    user_id?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            history: ({
                                /** Format: uuid */
                                user_id: string;
                            } & {
                                action: "granted" | "withdrawn";
                                consent_type: string;
                                /** Format: uuid */
                                id: string;
                                /** Format: date-time */
                                occurred_at: string;
                            })[];
                            /** @description Pass as `cursor` for the next page; null on the last one */
                            next_cursor: string | null;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/consent/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller’s consent changes, newest first (append-only) */
        get: {
            parameters: {
                query?: {
                    /** @description The `next_cursor` of the previous page: the rows after it */
                    cursor?: string;
                    limit?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            history: {
                                action: "granted" | "withdrawn";
                                consent_type: string;
                                /** Format: uuid */
                                id: string;
                                /** Format: date-time */
                                occurred_at: string;
                            }[];
                            /** @description Pass as `cursor` for the next page; null on the last one */
                            next_cursor: string | null;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/distribution/releases/{version}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download a release: 302 to a short-lived URL of its object
         * @description Authorization: Bearer zdc_…. The URL works for a few minutes without the credential. One identical 404 for every refusal (unknown, revoked or expired credential, revoked licence, missing or yanked release, a release published after the maintenance term); 429 per credential and per source IP; 503 while object storage is not configured.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    version: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Location: the presigned URL; Cache-Control: no-store */
                302: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/early-access": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Join the early-access waitlist
         * @description Answers 202 alike for new and repeat addresses; a confirmation link is mailed. 422 and nothing stored unless `consent` and `acknowledgement` are true.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Must be true */
                        acknowledgement: boolean;
                        acknowledgement_text_version: string;
                        app_description?: string;
                        app_name?: string;
                        /** Format: uri */
                        app_url?: string;
                        /** @description Must be true */
                        consent: boolean;
                        consent_text_version: string;
                        /** Format: email */
                        email: string;
                        expected_agents: "0" | "1_5" | "6_50" | "gt_50";
                        expected_users: "lt_100" | "100_1k" | "1k_10k" | "gt_10k";
                        full_name: string;
                        integrations: ("agents_mcp" | "customer_oidc" | "workforce_sso" | "api_keys")[];
                        intended_use?: string;
                        organization: string;
                        platforms: ("web" | "mobile" | "api" | "internal")[];
                        /** @description The person’s role or job title */
                        role: string;
                        source?: string;
                        stage: "idea" | "building" | "production";
                        test_goals: string;
                        timeline: "this_month" | "next_quarter" | "later";
                    };
                };
            };
            responses: {
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            status: "accepted";
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                        };
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/early-access/confirm": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Confirm the address of a waitlist request with the mailed token */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        token: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                        };
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/entitlements": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Features and caps of the caller’s organization’s plan */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            caps: {
                                /** @description null is unlimited */
                                agent_writes_per_hour: number | null;
                                /** @description null is unlimited */
                                api_calls_monthly: number | null;
                                /** @description null is unlimited */
                                mau: number | null;
                                /** @description null is unlimited */
                                oauth_client_requests_per_5min: number | null;
                                /** @description null is unlimited */
                                seats: number | null;
                            };
                            features: string[];
                            name: string;
                            plan_code: "free" | "pro" | "enterprise";
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/gdpr/admin/requests": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** All data-subject requests of the organization, newest first */
        get: {
            parameters: {
                query?: {
                    /** @description The `next_cursor` of the previous page: the rows after it */
                    cursor?: string;
                    limit?: number;
                    status?: "pending" | "verified" | "completed" | "rejected" | "cancelled";
                    type?: "access" | "export" | "erasure" | "rectification";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Pass as `cursor` for the next page; null on the last one */
                            next_cursor: string | null;
                            requests: {
                                /** Format: date-time */
                                created_at: string;
                                description: string | null;
                                /** Format: date-time */
                                due_at: string;
                                /** Format: uuid */
                                id: string;
                                rejection_reason: string | null;
                                request_type: "access" | "export" | "erasure" | "rectification";
                                resolved_at: string | null;
                                status: "pending" | "verified" | "completed" | "rejected" | "cancelled";
                                /** Format: uuid */
                                user_id: string;
                                verified_at: string | null;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/gdpr/admin/requests/{id}/process": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Fulfil an open request: return the data, or erase it
         * @description Access and export return the subject’s document; erasure scrubs their personal data across every module (409 when they are the sole owner); the audit log is retained. A pending request is verified by the processing administrator in the same step (recorded and audited).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description The export, for access and export requests */
                            data: {
                                /** @description Shape version of this document, `svc.personal-data/1` */
                                format: string;
                                /** Format: date-time */
                                generated_at: string;
                                /** @description One entry per personal-data contributor, plus `security_events` (docs/privacy.md) */
                                sections: {
                                    [key: string]: unknown;
                                };
                                /** Format: uuid */
                                tenant_id: string;
                                /** Format: uuid */
                                user_id: string;
                            } | null;
                            /** @description Contributors whose data was scrubbed, for erasure requests */
                            erased_sections: string[] | null;
                            request: {
                                /** Format: date-time */
                                created_at: string;
                                description: string | null;
                                /** Format: date-time */
                                due_at: string;
                                /** Format: uuid */
                                id: string;
                                rejection_reason: string | null;
                                request_type: "access" | "export" | "erasure" | "rectification";
                                resolved_at: string | null;
                                status: "pending" | "verified" | "completed" | "rejected" | "cancelled";
                                /** Format: uuid */
                                user_id: string;
                                verified_at: string | null;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/gdpr/admin/requests/{id}/reject": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Reject an open request with a reason */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        reason: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            created_at: string;
                            description: string | null;
                            /** Format: date-time */
                            due_at: string;
                            /** Format: uuid */
                            id: string;
                            rejection_reason: string | null;
                            request_type: "access" | "export" | "erasure" | "rectification";
                            resolved_at: string | null;
                            status: "pending" | "verified" | "completed" | "rejected" | "cancelled";
                            /** Format: uuid */
                            user_id: string;
                            verified_at: string | null;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/gdpr/admin/requests/{id}/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Confirm the subject’s identity (pending to verified) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            created_at: string;
                            description: string | null;
                            /** Format: date-time */
                            due_at: string;
                            /** Format: uuid */
                            id: string;
                            rejection_reason: string | null;
                            request_type: "access" | "export" | "erasure" | "rectification";
                            resolved_at: string | null;
                            status: "pending" | "verified" | "completed" | "rejected" | "cancelled";
                            /** Format: uuid */
                            user_id: string;
                            verified_at: string | null;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/gdpr/my-data": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Export everything held about the caller in this organization */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Shape version of this document, `svc.personal-data/1` */
                            format: string;
                            /** Format: date-time */
                            generated_at: string;
                            /** @description One entry per personal-data contributor, plus `security_events` (docs/privacy.md) */
                            sections: {
                                [key: string]: unknown;
                            };
                            /** Format: uuid */
                            tenant_id: string;
                            /** Format: uuid */
                            user_id: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/gdpr/requests": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller’s data-subject requests, newest first */
        get: {
            parameters: {
                query?: {
                    /** @description The `next_cursor` of the previous page: the rows after it */
                    cursor?: string;
                    limit?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Pass as `cursor` for the next page; null on the last one */
                            next_cursor: string | null;
                            requests: {
                                /** Format: date-time */
                                created_at: string;
                                description: string | null;
                                /** Format: date-time */
                                due_at: string;
                                /** Format: uuid */
                                id: string;
                                rejection_reason: string | null;
                                request_type: "access" | "export" | "erasure" | "rectification";
                                resolved_at: string | null;
                                status: "pending" | "verified" | "completed" | "rejected" | "cancelled";
                                /** Format: uuid */
                                user_id: string;
                                verified_at: string | null;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        put?: never;
        /** File a data-subject request (due in 30 days) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        description?: string;
                        request_type: "access" | "export" | "erasure" | "rectification";
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            created_at: string;
                            description: string | null;
                            /** Format: date-time */
                            due_at: string;
                            /** Format: uuid */
                            id: string;
                            rejection_reason: string | null;
                            request_type: "access" | "export" | "erasure" | "rectification";
                            resolved_at: string | null;
                            status: "pending" | "verified" | "completed" | "rejected" | "cancelled";
                            /** Format: uuid */
                            user_id: string;
                            verified_at: string | null;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/gdpr/requests/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Cancel an own open request (409 once resolved) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            created_at: string;
                            description: string | null;
                            /** Format: date-time */
                            due_at: string;
                            /** Format: uuid */
                            id: string;
                            rejection_reason: string | null;
                            request_type: "access" | "export" | "erasure" | "rectification";
                            resolved_at: string | null;
                            status: "pending" | "verified" | "completed" | "rejected" | "cancelled";
                            /** Format: uuid */
                            user_id: string;
                            verified_at: string | null;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/invites/accept": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Accept an invitation with a new account
         * @description 400 weak password; 409 an account with that email exists; 404; 410; 429.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description 12 to 128 characters, not common */
                        password: string;
                        /** @description The token of the invitation link */
                        token: string;
                        use_cookie?: boolean;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-1"];
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                            /** @description The separation-of-duties rule a refusal names */
                            rule?: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                            /** @description The separation-of-duties rule a refusal names */
                            rule?: string;
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                            /** @description The separation-of-duties rule a refusal names */
                            rule?: string;
                        };
                    };
                };
                /** @description Default Response */
                410: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                            /** @description The separation-of-duties rule a refusal names */
                            rule?: string;
                        };
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                            /** @description The separation-of-duties rule a refusal names */
                            rule?: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                            /** @description The separation-of-duties rule a refusal names */
                            rule?: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/invites/accept-existing": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Accept an invitation as the signed-in account
         * @description 403 the invitation was sent to another address; 409 already a member or a separation-of-duties breach.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The token of the invitation link */
                        token: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            role: string;
                            tenant_slug: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                            /** @description The separation-of-duties rule a refusal names */
                            rule?: string;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                            /** @description The separation-of-duties rule a refusal names */
                            rule?: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                            /** @description The separation-of-duties rule a refusal names */
                            rule?: string;
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                            /** @description The separation-of-duties rule a refusal names */
                            rule?: string;
                        };
                    };
                };
                /** @description Default Response */
                410: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                            /** @description The separation-of-duties rule a refusal names */
                            rule?: string;
                        };
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                            /** @description The separation-of-duties rule a refusal names */
                            rule?: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                            /** @description The separation-of-duties rule a refusal names */
                            rule?: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/invites/preview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * What the invitation acceptance page shows
         * @description 404 invalid, revoked or redeemed; 410 expired; 429 (budget shared with accept).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The token of the invitation link */
                        token: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            email: string;
                            /** Format: date-time */
                            expires_at: string;
                            organization_name: string;
                            role: string;
                            tenant_slug: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                            /** @description The separation-of-duties rule a refusal names */
                            rule?: string;
                        };
                    };
                };
                /** @description Default Response */
                410: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                            /** @description The separation-of-duties rule a refusal names */
                            rule?: string;
                        };
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                            /** @description The separation-of-duties rule a refusal names */
                            rule?: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                            /** @description The separation-of-duties rule a refusal names */
                            rule?: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/manifest/apply": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Apply an approved manifest, each step in its own audited change
         * @description 409 with `blockers` before anything is spent (conflicting or invalid steps, or another apply of the manifest running). 403 without spending, `approval_state` saying why: no-approval, plan-changed (the document, the organization or the catalogue now resolve differently) or approver-authority (the approving person lacks a permission the manifest grants). 502 when a step fails: applying again resumes after the finished steps. An applied manifest answers `resumed: true, applied: 0`. Every step is audited with the manifest hash as `correlation_id`.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            /** @description The envelope {"manifest": {...}}; a top-level document is 422 */
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * @description Required: the manifest document (Part B 2.4): `manifest_version` (1); optional `resources[]` `{oauth_resource_identifier, namespace, permissions[{action, risk?}]}`, `roles[]` `{code, name, permissions[]}` (exact codes), `invites[]` `{email, role}` (never owner or customer), `sso` `{display_name, issuer, client_id, default_role?}` (no secret). Unknown keys are refused by name.
                         * @example {
                         *       "manifest_version": 1,
                         *       "resources": [
                         *         {
                         *           "oauth_resource_identifier": "https://billing.example.com/api",
                         *           "namespace": "billing",
                         *           "permissions": [
                         *             {
                         *               "action": "invoices.read",
                         *               "risk": 10
                         *             },
                         *             {
                         *               "action": "invoices.write",
                         *               "risk": 50
                         *             }
                         *           ]
                         *         }
                         *       ],
                         *       "roles": [
                         *         {
                         *           "code": "billing-clerk",
                         *           "name": "Billing clerk",
                         *           "permissions": [
                         *             "billing:invoices.read",
                         *             "command:read"
                         *           ]
                         *         }
                         *       ],
                         *       "invites": [
                         *         {
                         *           "email": "clerk@example.com",
                         *           "role": "billing-clerk"
                         *         }
                         *       ],
                         *       "sso": {
                         *         "display_name": "Corporate IdP",
                         *         "issuer": "https://idp.example.com",
                         *         "client_id": "svc-prod"
                         *       }
                         *     }
                         */
                        manifest?: unknown;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Steps applied by this call */
                            applied: number;
                            approval_id: string | null;
                            /** @description The person whose decision settled the ask */
                            approved_by: string | null;
                            manifest_hash: string;
                            /** @description An earlier apply of this manifest had started (or finished) */
                            resumed: boolean;
                            /** @description Steps not run by this call: no-ops and steps finished before */
                            skipped: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            approval_id?: string | null;
                            approval_state?: "no-approval" | "plan-changed" | "approver-authority";
                            approval_status?: string;
                            detail: string;
                            missing?: string[];
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Conflicting or invalid steps, or the apply already running */
                            blockers: {
                                index: number | null;
                                kind: string;
                                reason: string;
                                target: string;
                                would: string;
                            }[];
                            detail: string;
                        };
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Every failure, each naming its field */
                            detail: string;
                            errors?: string[];
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            applied: number;
                            approval_id: string | null;
                            detail: string;
                            failed_step: number;
                            manifest_hash: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/manifest/plan": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * What applying a manifest would do now, step by step (read-only)
         * @description Each step `{index, kind, target, would, detail}` with `would` one of create, noop (exists identically), conflict (exists and differs: nothing is updated in place) and invalid (`detail.reason` says why). 422 for a document posted outside the envelope or failing the schema (each failure named).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            /** @description The envelope {"manifest": {...}}; a top-level document is 422 */
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * @description Required: the manifest document (Part B 2.4): `manifest_version` (1); optional `resources[]` `{oauth_resource_identifier, namespace, permissions[{action, risk?}]}`, `roles[]` `{code, name, permissions[]}` (exact codes), `invites[]` `{email, role}` (never owner or customer), `sso` `{display_name, issuer, client_id, default_role?}` (no secret). Unknown keys are refused by name.
                         * @example {
                         *       "manifest_version": 1,
                         *       "resources": [
                         *         {
                         *           "oauth_resource_identifier": "https://billing.example.com/api",
                         *           "namespace": "billing",
                         *           "permissions": [
                         *             {
                         *               "action": "invoices.read",
                         *               "risk": 10
                         *             },
                         *             {
                         *               "action": "invoices.write",
                         *               "risk": 50
                         *             }
                         *           ]
                         *         }
                         *       ],
                         *       "roles": [
                         *         {
                         *           "code": "billing-clerk",
                         *           "name": "Billing clerk",
                         *           "permissions": [
                         *             "billing:invoices.read",
                         *             "command:read"
                         *           ]
                         *         }
                         *       ],
                         *       "invites": [
                         *         {
                         *           "email": "clerk@example.com",
                         *           "role": "billing-clerk"
                         *         }
                         *       ],
                         *       "sso": {
                         *         "display_name": "Corporate IdP",
                         *         "issuer": "https://idp.example.com",
                         *         "client_id": "svc-prod"
                         *       }
                         *     }
                         */
                        manifest?: unknown;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description No conflict and no invalid step */
                            appliable: boolean;
                            catalogue_version: string;
                            /** @description The exact permission codes the plan would mint into roles or invites */
                            grants: string[];
                            /** @description SHA-256 of the RFC 8785 canonical JSON of the document */
                            manifest_hash: string;
                            /** @description What an approval binds to besides the content and the catalogue version */
                            plan_hash: string;
                            steps: {
                                /** @description What the step creates; `reason` when it cannot */
                                detail: {
                                    [key: string]: unknown;
                                };
                                index: number;
                                kind: "resource" | "role" | "invite" | "sso";
                                target: string;
                                would: "create" | "noop" | "conflict" | "invalid";
                            }[];
                            summary: {
                                conflict: number;
                                create: number;
                                invalid: number;
                                noop: number;
                                steps: number;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Every failure, each naming its field */
                            detail: string;
                            errors?: string[];
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/manifest/request-approval": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Ask a person to approve a manifest
         * @description Creates a pending approval request (`resource_type` manifest) bound to the content hash, the resolved plan hash and the catalogue version, with the plan's steps and exact grants in its `resource`; decided through POST /approvals/{id}/decide by a person holding agents:approvals:decide and manifest:apply. 201 with a new ask; 200 with your identical live ask (`created: false`).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            /** @description The envelope {"manifest": {...}}; a top-level document is 422 */
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * @description Required: the manifest document (Part B 2.4): `manifest_version` (1); optional `resources[]` `{oauth_resource_identifier, namespace, permissions[{action, risk?}]}`, `roles[]` `{code, name, permissions[]}` (exact codes), `invites[]` `{email, role}` (never owner or customer), `sso` `{display_name, issuer, client_id, default_role?}` (no secret). Unknown keys are refused by name.
                         * @example {
                         *       "manifest_version": 1,
                         *       "resources": [
                         *         {
                         *           "oauth_resource_identifier": "https://billing.example.com/api",
                         *           "namespace": "billing",
                         *           "permissions": [
                         *             {
                         *               "action": "invoices.read",
                         *               "risk": 10
                         *             },
                         *             {
                         *               "action": "invoices.write",
                         *               "risk": 50
                         *             }
                         *           ]
                         *         }
                         *       ],
                         *       "roles": [
                         *         {
                         *           "code": "billing-clerk",
                         *           "name": "Billing clerk",
                         *           "permissions": [
                         *             "billing:invoices.read",
                         *             "command:read"
                         *           ]
                         *         }
                         *       ],
                         *       "invites": [
                         *         {
                         *           "email": "clerk@example.com",
                         *           "role": "billing-clerk"
                         *         }
                         *       ],
                         *       "sso": {
                         *         "display_name": "Corporate IdP",
                         *         "issuer": "https://idp.example.com",
                         *         "client_id": "svc-prod"
                         *       }
                         *     }
                         */
                        manifest?: unknown;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            appliable: boolean;
                            /** Format: uuid */
                            approval_id: string;
                            approval_status: "pending" | "approved" | "denied" | "expired" | "consumed";
                            /** @description false: your identical live ask, answered again */
                            created: boolean;
                            manifest_hash: string;
                        };
                    };
                };
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            appliable: boolean;
                            /** Format: uuid */
                            approval_id: string;
                            approval_status: "pending" | "approved" | "denied" | "expired" | "consumed";
                            /** @description false: your identical live ask, answered again */
                            created: boolean;
                            manifest_hash: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Every failure, each naming its field */
                            detail: string;
                            errors?: string[];
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/mcp": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The first-party MCP server (Streamable HTTP, stateless, protocol 2025-06-18; AI agents only)
         * @description Methods `initialize`, `ping`, `tools/list`, `tools/call` (a dry run is `params: {name, arguments, dry_run: true}`). Answers `application/json`. 401 without an agent token; 403 for people, API keys and service tokens, and for an agent whose kill switch is engaged; 429 past the per-agent, per-organization or per-source-host message budgets.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    } | unknown[];
                };
            };
            responses: {
                /** @description The JSON-RPC reply */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: {
                                code: number;
                                data?: unknown;
                                message: string;
                            };
                            id: string | number | null;
                            /** @enum {string} */
                            jsonrpc: "2.0";
                            result?: unknown;
                        };
                    };
                };
                /** @description Notifications only: accepted, nothing to answer */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: {
                                code: number;
                                data?: unknown;
                                message: string;
                            };
                            id: string | number | null;
                            /** @enum {string} */
                            jsonrpc: "2.0";
                            result?: unknown;
                        } | components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                406: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/mcp/call/{server_name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Proxy one JSON-RPC request to an upstream MCP server (AI agents only)
         * @description Methods initialize, ping, tools/list and tools/call; tools/list is filtered to the allow-list. 403 naming the reason: not an agent, another method, a tool not allowed, a tool above the agent's risk ceiling. 404 unknown or disabled server. 429 past the server's caps or the MCP throttles. 502 when the upstream fails, redirects, answers more than 1048576 bytes or takes longer than 5000 ms.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    server_name: string;
                };
                cookie?: never;
            };
            /** @description One JSON-RPC 2.0 message */
            requestBody: {
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            responses: {
                /** @description One JSON-RPC 2.0 message */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/mcp/servers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The organization's upstream MCP servers */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            servers: {
                                /** Format: date-time */
                                created_at: string;
                                description: string | null;
                                enabled: boolean;
                                /** Format: uuid */
                                id: string;
                                max_calls_per_day: number;
                                max_calls_per_minute: number;
                                name: string;
                                /** @description The allow-list: tools/list through the gateway shows the allowed ones */
                                tools: {
                                    allowed: boolean;
                                    name: string;
                                    /** @description Judged against the calling agent's risk ceiling */
                                    risk: number;
                                }[];
                                /** Format: date-time */
                                updated_at: string;
                                upstream_url: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        put?: never;
        /** Register an upstream MCP server */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        description?: string | null;
                        /** @description Default 500 */
                        max_calls_per_day?: number;
                        /** @description Default 30 */
                        max_calls_per_minute?: number;
                        /** @description A lowercase slug (a-z, 0-9, inner hyphens; up to 64); immutable */
                        name: string;
                        /** @description https, port 443, a public host name; where it resolves is checked on every call */
                        upstream_url: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            created_at: string;
                            description: string | null;
                            enabled: boolean;
                            /** Format: uuid */
                            id: string;
                            max_calls_per_day: number;
                            max_calls_per_minute: number;
                            name: string;
                            /** @description The allow-list: tools/list through the gateway shows the allowed ones */
                            tools: {
                                allowed: boolean;
                                name: string;
                                /** @description Judged against the calling agent's risk ceiling */
                                risk: number;
                            }[];
                            /** Format: date-time */
                            updated_at: string;
                            upstream_url: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/mcp/servers/{server_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One upstream MCP server */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    server_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            created_at: string;
                            description: string | null;
                            enabled: boolean;
                            /** Format: uuid */
                            id: string;
                            max_calls_per_day: number;
                            max_calls_per_minute: number;
                            name: string;
                            /** @description The allow-list: tools/list through the gateway shows the allowed ones */
                            tools: {
                                allowed: boolean;
                                name: string;
                                /** @description Judged against the calling agent's risk ceiling */
                                risk: number;
                            }[];
                            /** Format: date-time */
                            updated_at: string;
                            upstream_url: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Remove an upstream MCP server and its allow-list */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    server_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /** Change an upstream MCP server (`enabled: false` stops every call to it); the name is immutable */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    server_id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        description?: string | null;
                        enabled?: boolean;
                        /** @description Default 500 */
                        max_calls_per_day?: number;
                        /** @description Default 30 */
                        max_calls_per_minute?: number;
                        /** @description Refused: the name is immutable */
                        name?: string;
                        /** @description https, port 443, a public host name; where it resolves is checked on every call */
                        upstream_url?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            created_at: string;
                            description: string | null;
                            enabled: boolean;
                            /** Format: uuid */
                            id: string;
                            max_calls_per_day: number;
                            max_calls_per_minute: number;
                            name: string;
                            /** @description The allow-list: tools/list through the gateway shows the allowed ones */
                            tools: {
                                allowed: boolean;
                                name: string;
                                /** @description Judged against the calling agent's risk ceiling */
                                risk: number;
                            }[];
                            /** Format: date-time */
                            updated_at: string;
                            upstream_url: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/v1/mcp/servers/{server_id}/tools": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Replace the server's tool allow-list, each tool with `allowed` and its `risk` (0-100) */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    server_id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        tools: {
                            allowed: boolean;
                            name: string;
                            /** @description Judged against the calling agent's risk ceiling */
                            risk: number;
                        }[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            created_at: string;
                            description: string | null;
                            enabled: boolean;
                            /** Format: uuid */
                            id: string;
                            max_calls_per_day: number;
                            max_calls_per_minute: number;
                            name: string;
                            /** @description The allow-list: tools/list through the gateway shows the allowed ones */
                            tools: {
                                allowed: boolean;
                                name: string;
                                /** @description Judged against the calling agent's risk ceiling */
                                risk: number;
                            }[];
                            /** Format: date-time */
                            updated_at: string;
                            upstream_url: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/mcp/servers/{server_id}/tools/{tool_name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Remove one tool from the server's allow-list */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    server_id: string;
                    tool_name: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller’s identity */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            email_verified: boolean;
                            is_owner: boolean;
                            population: "workforce" | "customer";
                            role: string;
                            /** Format: uuid */
                            tenant_id: string;
                            tenant_isolation: string;
                            /** Format: uuid */
                            user_id: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/me/activity": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller’s own recent security events, newest first */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            events: {
                                action: string;
                                actor_type: string;
                                category: string;
                                data: {
                                    [key: string]: unknown;
                                };
                                /** Format: uuid */
                                id: string;
                                /** Format: date-time */
                                occurred_at: string;
                                outcome: string;
                                severity: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/me/agents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The live delegations you granted to agents */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            delegations: {
                                /** Format: uuid */
                                agent_id: string;
                                agent_name: string;
                                agent_status: string;
                                /** Format: date-time */
                                created_at: string;
                                /** Format: uuid */
                                delegation_id: string;
                                expires_at: string | null;
                                permissions: string[];
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/me/agents/{delegation_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke a delegation you granted; the agent loses it on its next request */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    delegation_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/me/connected-apps": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Apps the caller consented to
         * @description Every consent given on the consent page, in this organization.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            connected_apps: {
                                client_id: string;
                                /** Format: date-time */
                                granted_at: string;
                                /** @description The client name shown on the consent page */
                                name: string;
                                /** @description Scopes the person consented to */
                                scopes: string[];
                                /** Format: date-time */
                                updated_at: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/me/connected-apps/{client_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke an app
         * @description Removes the consent, ends the live grant sessions of that app (each receiving a back-channel logout token when it registered a URI) and blocks further refresh. 404 when the caller has no consent for it.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    client_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/me/permissions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller’s permissions in this organization */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            is_owner: boolean;
                            permissions: string[];
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/me/profile": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller’s profile */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description false while an identity provider (SCIM, SSO) manages the profile */
                            editable: boolean;
                            email: string;
                            family_name: string | null;
                            given_name: string | null;
                            name: string | null;
                            picture: string | null;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Change the caller’s names */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            /** @description Names only: email and picture are not editable */
            requestBody: {
                content: {
                    "application/json": {
                        family_name?: string | null;
                        given_name?: string | null;
                        name?: string | null;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description false while an identity provider (SCIM, SSO) manages the profile */
                            editable: boolean;
                            email: string;
                            family_name: string | null;
                            given_name: string | null;
                            name: string | null;
                            picture: string | null;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/v1/me/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller’s live sessions in this organization */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            sessions: {
                                /** @description For a session an OAuth application holds (an authorization-code grant): the client and its name. Null for a sign-in of your own. */
                                application: {
                                    client_id: string;
                                    name: string;
                                } | null;
                                /** Format: date-time */
                                created_at: string;
                                /** @description The session of the token making this request */
                                current: boolean;
                                dpop_bound: boolean;
                                /** Format: date-time */
                                expires_at: string;
                                /**
                                 * Format: date-time
                                 * @description Sign-in or last refresh
                                 */
                                last_used_at: string;
                                /** @description Authentication methods (RFC 8176 amr values) */
                                methods: string[];
                                /** Format: uuid */
                                session_id: string;
                                user_agent: string | null;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/me/sessions/{sid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * End one of the caller’s sessions
         * @description One 404 for a session that is not yours, unknown, or already ended.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    sid: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The roster (workforce by default) */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    offset?: number;
                    population?: "workforce" | "customer";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            email: string;
                            /** Format: date-time */
                            joined_at: string;
                            membership_id: string;
                            name: string | null;
                            population: string;
                            role: string;
                            scim_managed: boolean;
                            status: string;
                            user_id: string;
                        }[];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                            /** @description The separation-of-duties rule a refusal names */
                            rule?: string;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                            /** @description The separation-of-duties rule a refusal names */
                            rule?: string;
                        };
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                            /** @description The separation-of-duties rule a refusal names */
                            rule?: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/members/{membership_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Remove a member; their sessions end in the same transaction */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    membership_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                            /** @description The separation-of-duties rule a refusal names */
                            rule?: string;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                            /** @description The separation-of-duties rule a refusal names */
                            rule?: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                            /** @description The separation-of-duties rule a refusal names */
                            rule?: string;
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                            /** @description The separation-of-duties rule a refusal names */
                            rule?: string;
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /**
         * Change a member’s role
         * @description `role` is a system role or a custom role code. 422 unknown role; 403 the role holds a permission you lack; 404; 409 for owner or SCIM-managed memberships and separation-of-duties breaches (a custom role counts by the permissions it grants).
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    membership_id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description A system role other than owner and customer, or the code of one of the organization's custom roles (`GET /api/v1/authz/roles`) */
                        role: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            email: string;
                            /** Format: date-time */
                            joined_at: string;
                            membership_id: string;
                            name: string | null;
                            population: string;
                            role: string;
                            scim_managed: boolean;
                            status: string;
                            user_id: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                            /** @description The separation-of-duties rule a refusal names */
                            rule?: string;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                            /** @description The separation-of-duties rule a refusal names */
                            rule?: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                            /** @description The separation-of-duties rule a refusal names */
                            rule?: string;
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                            /** @description The separation-of-duties rule a refusal names */
                            rule?: string;
                        };
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                            /** @description The separation-of-duties rule a refusal names */
                            rule?: string;
                        };
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/v1/members/domains": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Claimed domains */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            domain: string;
                            domain_id: string;
                            /** @description Publish as a TXT record at the domain name itself */
                            txt_record: string;
                            verified: boolean;
                            verified_at: string | null;
                        }[];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                            /** @description The separation-of-duties rule a refusal names */
                            rule?: string;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                            /** @description The separation-of-duties rule a refusal names */
                            rule?: string;
                        };
                    };
                };
            };
        };
        put?: never;
        /**
         * Claim a domain; answers the TXT record to publish at the domain name
         * @description 422 malformed or a public email provider; 409 verified by another organization.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        domain: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            domain: string;
                            domain_id: string;
                            /** @description Publish as a TXT record at the domain name itself */
                            txt_record: string;
                            verified: boolean;
                            verified_at: string | null;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                            /** @description The separation-of-duties rule a refusal names */
                            rule?: string;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                            /** @description The separation-of-duties rule a refusal names */
                            rule?: string;
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                            /** @description The separation-of-duties rule a refusal names */
                            rule?: string;
                        };
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                            /** @description The separation-of-duties rule a refusal names */
                            rule?: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/members/domains/{domain_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Withdraw a domain claim */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    domain_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                            /** @description The separation-of-duties rule a refusal names */
                            rule?: string;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                            /** @description The separation-of-duties rule a refusal names */
                            rule?: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                            /** @description The separation-of-duties rule a refusal names */
                            rule?: string;
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/members/domains/{domain_id}/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Look the TXT record up now and verify the domain */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    domain_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            domain: string;
                            verified: boolean;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                            /** @description The separation-of-duties rule a refusal names */
                            rule?: string;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                            /** @description The separation-of-duties rule a refusal names */
                            rule?: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                            /** @description The separation-of-duties rule a refusal names */
                            rule?: string;
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                            /** @description The separation-of-duties rule a refusal names */
                            rule?: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/members/invites": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Pending invitations */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            email: string;
                            /** Format: date-time */
                            expires_at: string;
                            invite_id: string;
                            reissued: boolean;
                            role: string;
                        }[];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                            /** @description The separation-of-duties rule a refusal names */
                            rule?: string;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                            /** @description The separation-of-duties rule a refusal names */
                            rule?: string;
                        };
                    };
                };
            };
        };
        put?: never;
        /**
         * Invite a person (re-inviting an address re-issues its pending invitation)
         * @description `role` (default `member`) is a system role or a custom role code. 422 unknown role; 409 already a member; 403 seat cap reached, naming the plan (pending invitations count), or the role holds a permission you lack.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** Format: email */
                        email: string;
                        /** @description A system role other than owner and customer, or the code of one of the organization's custom roles (`GET /api/v1/authz/roles`) */
                        role?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            email: string;
                            /** Format: date-time */
                            expires_at: string;
                            invite_id: string;
                            reissued: boolean;
                            role: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                            /** @description The separation-of-duties rule a refusal names */
                            rule?: string;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                            /** @description The separation-of-duties rule a refusal names */
                            rule?: string;
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                            /** @description The separation-of-duties rule a refusal names */
                            rule?: string;
                        };
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                            /** @description The separation-of-duties rule a refusal names */
                            rule?: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/members/invites/{invite_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke a pending invitation; its link dies at once */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    invite_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                            /** @description The separation-of-duties rule a refusal names */
                            rule?: string;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                            /** @description The separation-of-duties rule a refusal names */
                            rule?: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                            /** @description The separation-of-duties rule a refusal names */
                            rule?: string;
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/mfa/challenge": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Complete a sign-in with its second factor
         * @description Send the `mfa_token` a sign-in answered with a TOTP code or a single-use recovery code. The challenge is single use, lives about 5 minutes and takes 5 codes: 400 for a wrong code, 401 for an invalid, expired, exhausted or already used challenge. A DPoP proof binds the tokens (a sign-in proven with a DPoP key must use the same key here). Every MFA route answers 503 while MFA_ENCRYPTION_KEY is not provisioned.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description RFC 9449 proof */
                    dpop?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description A 6-digit TOTP code, or (where accepted) one of the single-use recovery codes */
                        code: string;
                        /** @description From the sign-in that answered mfa_required */
                        mfa_token: string;
                        /** @description Set the refresh token as an httpOnly cookie; the body then carries null */
                        use_cookie?: boolean;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-1"];
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/mfa/disable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Turn TOTP off
         * @description Needs a correct TOTP code or an unspent recovery code. 400 wrong code; 409 when MFA is not enabled; 429 after repeated wrong codes. Every MFA route answers 503 while MFA_ENCRYPTION_KEY is not provisioned.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description A 6-digit TOTP code, or (where accepted) one of the single-use recovery codes */
                        code: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/mfa/recovery-codes/regenerate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Replace the recovery codes
         * @description Needs a correct TOTP code or an unspent recovery code. Answers 8 new codes, shown once; every earlier code stops working. 400 wrong code; 409 when MFA is not enabled; 429 after repeated wrong codes. Every MFA route answers 503 while MFA_ENCRYPTION_KEY is not provisioned.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description A 6-digit TOTP code, or (where accepted) one of the single-use recovery codes */
                        code: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description 8 single-use codes, shown this once */
                            recovery_codes: string[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/mfa/setup": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start TOTP enrollment
         * @description Answers the secret, its provisioning URI and 8 recovery codes, shown once. The factor is enabled only by `POST /mfa/setup/verify`; calling setup again replaces a pending enrollment. 409 when enabled. 403 for a session through an organization’s SSO, here and on verify, disable and regenerate: the factor is the account’s, so it changes only after a sign-in with one of the account’s own methods. Every MFA route answers 503 while MFA_ENCRYPTION_KEY is not provisioned.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `otpauth://totp/…` for an authenticator app (QR code) */
                            provisioning_uri: string;
                            /** @description 8 single-use codes, shown this once */
                            recovery_codes: string[];
                            /** @description Base32 TOTP secret (RFC 6238: SHA-1, 6 digits, 30 s) */
                            secret: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/mfa/setup/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Enable TOTP with a first code
         * @description A correct code from the authenticator app enables the pending factor. 400 wrong code; 409 when no enrollment is pending or MFA is already enabled; 429 after repeated wrong codes. Every MFA route answers 503 while MFA_ENCRYPTION_KEY is not provisioned.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description A 6-digit TOTP code, or (where accepted) one of the single-use recovery codes */
                        code: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-3"];
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/mfa/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Whether TOTP is enabled
         * @description Also tells a pending enrollment and how many recovery codes are left. Every MFA route answers 503 while MFA_ENCRYPTION_KEY is not provisioned.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-3"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/oauth/authorize": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Authorization endpoint
         * @description Part A 4.14. Answers a redirect: to the hosted `/login` or `/consent` page, or to the redirect URI with `code` and `state`, or with `error`, `error_description` and `state` (invalid_request, unsupported_response_type, invalid_scope, unauthorized_client, access_denied, login_required, consent_required, invalid_target, request_not_supported, request_uri_not_supported). An unknown client or a redirect URI not registered exactly answers 400 with an RFC 6749 error body and never redirects; 429 when the per-client or per-address allowance is spent.
         */
        get: {
            parameters: {
                query: {
                    client_id: string;
                    /** @description PKCE: base64url SHA-256 of the verifier */
                    code_challenge: string;
                    /** @description `S256` (plain is refused) */
                    code_challenge_method: string;
                    /** @description Accepted and carried */
                    login_hint?: string;
                    /** @description Non-negative integer seconds; 0 behaves like prompt=login */
                    max_age?: string;
                    /** @description Returned in the ID token */
                    nonce?: string;
                    /** @description `login`, `consent`, `none` or `select_account` (space-separated; `none` alone) */
                    prompt?: string;
                    /** @description Exactly one of the registered redirect URIs */
                    redirect_uri: string;
                    /** @description RFC 8707 resource identifier registered and enabled in the organization */
                    resource?: string;
                    /** @description `code` */
                    response_type: string;
                    /** @description Space-separated subset of `openid profile email` registered for the client */
                    scope: string;
                    /** @description Returned unchanged on the redirect */
                    state?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                302: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description RFC 6749 section 5.2 */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            error_description: string;
                        };
                    };
                };
                /** @description RFC 6749 section 5.2 */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            error_description: string;
                        };
                    };
                };
            };
        };
        put?: never;
        /**
         * Authorization endpoint (form post)
         * @description Part A 4.14. Answers a redirect: to the hosted `/login` or `/consent` page, or to the redirect URI with `code` and `state`, or with `error`, `error_description` and `state` (invalid_request, unsupported_response_type, invalid_scope, unauthorized_client, access_denied, login_required, consent_required, invalid_target, request_not_supported, request_uri_not_supported). An unknown client or a redirect URI not registered exactly answers 400 with an RFC 6749 error body and never redirects; 429 when the per-client or per-address allowance is spent. The same parameters as GET, form-encoded.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/x-www-form-urlencoded": {
                        client_id: string;
                        /** @description PKCE: base64url SHA-256 of the verifier */
                        code_challenge: string;
                        /** @description `S256` (plain is refused) */
                        code_challenge_method: string;
                        /** @description Accepted and carried */
                        login_hint?: string;
                        /** @description Non-negative integer seconds; 0 behaves like prompt=login */
                        max_age?: string;
                        /** @description Returned in the ID token */
                        nonce?: string;
                        /** @description `login`, `consent`, `none` or `select_account` (space-separated; `none` alone) */
                        prompt?: string;
                        /** @description Exactly one of the registered redirect URIs */
                        redirect_uri: string;
                        /** @description RFC 8707 resource identifier registered and enabled in the organization */
                        resource?: string;
                        /** @description `code` */
                        response_type: string;
                        /** @description Space-separated subset of `openid profile email` registered for the client */
                        scope: string;
                        /** @description Returned unchanged on the redirect */
                        state?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                303: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description RFC 6749 section 5.2 */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            error_description: string;
                        };
                    };
                };
                /** @description RFC 6749 section 5.2 */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            error_description: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/oauth/clients": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the organization’s OAuth clients (never secrets)
         * @description Needs `tenant:manage` (a person or an API key holding it); 403 while the organization awaits approval.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            backchannel_logout_uri: string | null;
                            client_id: string;
                            client_type: "confidential" | "public";
                            /** Format: date-time */
                            created_at: string;
                            grant_types: string[];
                            name: string;
                            post_logout_redirect_uris: string[];
                            redirect_uris: string[];
                            scopes: string[];
                            /** Format: date-time */
                            updated_at: string;
                        }[];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Register an OAuth client (a confidential client’s secret is returned once)
         * @description Needs `tenant:manage` (a person or an API key holding it); 403 while the organization awaits approval. 422 names the registration rule broken; nothing is stored then.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        backchannel_logout_uri?: string | null;
                        /** @description `confidential` (holds a secret) or `public` */
                        client_type: string;
                        /** @description Non-empty subset of authorization_code, refresh_token, client_credentials; default ["authorization_code"]; refresh_token needs authorization_code; client_credentials only for confidential clients */
                        grant_types?: string[];
                        /** @description 1 to 255 characters, no control characters; shown on the consent screen */
                        name: string;
                        /** @description 0 to 20 URIs, default []: exact strings, at most 2000 characters each, no duplicates; absolute, no fragment, no wildcard; https, http only on localhost, 127.0.0.1 or [::1], or a private-use scheme such as com.example.app:/callback */
                        post_logout_redirect_uris?: string[];
                        /** @description 1 to 20 URIs when grant_types include authorization_code, else 0 to 20 (a client_credentials-only client may send []): exact strings, at most 2000 characters each, no duplicates; absolute, no fragment, no wildcard; https, http only on localhost, 127.0.0.1 or [::1], or a private-use scheme such as com.example.app:/callback */
                        redirect_uris: string[];
                        /** @description Non-empty subset of openid, profile, email; default all three */
                        scopes?: string[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            backchannel_logout_uri: string | null;
                            client_id: string;
                            client_type: "confidential" | "public";
                            /** Format: date-time */
                            created_at: string;
                            grant_types: string[];
                            name: string;
                            post_logout_redirect_uris: string[];
                            redirect_uris: string[];
                            scopes: string[];
                            /** Format: date-time */
                            updated_at: string;
                        } & {
                            /** @description Confidential clients only. The client secret: shown only now, store it now (only its SHA-256 is kept) */
                            client_secret?: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/oauth/clients/{client_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One OAuth client (never its secret)
         * @description Needs `tenant:manage` (a person or an API key holding it); 403 while the organization awaits approval.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    client_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            backchannel_logout_uri: string | null;
                            client_id: string;
                            client_type: "confidential" | "public";
                            /** Format: date-time */
                            created_at: string;
                            grant_types: string[];
                            name: string;
                            post_logout_redirect_uris: string[];
                            redirect_uris: string[];
                            scopes: string[];
                            /** Format: date-time */
                            updated_at: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /**
         * Delete an OAuth client
         * @description Needs `tenant:manage` (a person or an API key holding it); 403 while the organization awaits approval. Immediate and permanent; the client id is never issued again.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    client_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /**
         * Change registration parameters (every rule is checked again)
         * @description Needs `tenant:manage` (a person or an API key holding it); 403 while the organization awaits approval. Fields left out keep their value; `backchannel_logout_uri: null` removes it. The client type is fixed at registration (422).
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    client_id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        backchannel_logout_uri?: string | null;
                        /** @description Fixed at registration: a different value is 422 */
                        client_type?: string;
                        /** @description Non-empty subset of authorization_code, refresh_token, client_credentials; default ["authorization_code"]; refresh_token needs authorization_code; client_credentials only for confidential clients */
                        grant_types?: string[];
                        /** @description 1 to 255 characters, no control characters; shown on the consent screen */
                        name?: string;
                        /** @description 0 to 20 URIs, default []: exact strings, at most 2000 characters each, no duplicates; absolute, no fragment, no wildcard; https, http only on localhost, 127.0.0.1 or [::1], or a private-use scheme such as com.example.app:/callback */
                        post_logout_redirect_uris?: string[];
                        /** @description 1 to 20 URIs when grant_types include authorization_code, else 0 to 20 (a client_credentials-only client may send []): exact strings, at most 2000 characters each, no duplicates; absolute, no fragment, no wildcard; https, http only on localhost, 127.0.0.1 or [::1], or a private-use scheme such as com.example.app:/callback */
                        redirect_uris?: string[];
                        /** @description Non-empty subset of openid, profile, email; default all three */
                        scopes?: string[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            backchannel_logout_uri: string | null;
                            client_id: string;
                            client_type: "confidential" | "public";
                            /** Format: date-time */
                            created_at: string;
                            grant_types: string[];
                            name: string;
                            post_logout_redirect_uris: string[];
                            redirect_uris: string[];
                            scopes: string[];
                            /** Format: date-time */
                            updated_at: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/v1/oauth/clients/{client_id}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * New client secret (returned once); the previous one stops working at once
         * @description Needs `tenant:manage` (a person or an API key holding it); 403 while the organization awaits approval. 409 for a public client, which has no secret.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    client_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            backchannel_logout_uri: string | null;
                            client_id: string;
                            client_type: "confidential" | "public";
                            /** Format: date-time */
                            created_at: string;
                            grant_types: string[];
                            name: string;
                            post_logout_redirect_uris: string[];
                            redirect_uris: string[];
                            scopes: string[];
                            /** Format: date-time */
                            updated_at: string;
                        } & {
                            /** @description The client secret: shown only now, store it now (only its SHA-256 is kept) */
                            client_secret: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/oauth/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * End session (RP-initiated logout)
         * @description Part A 4.14: `id_token_hint` (required), `post_logout_redirect_uri` (registered, exact), `state`. Redirects to the hosted `/logout` confirmation page; after confirmation the session ends and the browser goes to the post-logout redirect URI with `state`. 400 `{"detail"}` otherwise, never redirected.
         */
        get: {
            parameters: {
                query: {
                    id_token_hint: string;
                    /** @description Registered for the client, exactly */
                    post_logout_redirect_uri?: string;
                    /** @description Returned unchanged */
                    state?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                303: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/oauth/resources": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the organization’s protected resources
         * @description Needs `tenant:manage` (a person or an API key holding it); 403 while the organization awaits approval.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            created_at: string;
                            enabled: boolean;
                            /** Format: uuid */
                            id: string;
                            /** @description RFC 8707 resource identifier; the `aud` of tokens minted for it */
                            identifier: string;
                            name: string;
                            /** Format: date-time */
                            updated_at: string;
                        }[];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Register a protected resource (RFC 8707 resource identifier)
         * @description Needs `tenant:manage` (a person or an API key holding it); 403 while the organization awaits approval. 409 when the organization registered the identifier already; 422 names the rule.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Default true */
                        enabled?: boolean;
                        /** @description Absolute URI without fragment (RFC 8707 section 2), at most 2000 characters; unique in the organization; matched exactly */
                        identifier: string;
                        /** @description 1 to 255 characters, no control characters; shown on the consent screen */
                        name: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            created_at: string;
                            enabled: boolean;
                            /** Format: uuid */
                            id: string;
                            /** @description RFC 8707 resource identifier; the `aud` of tokens minted for it */
                            identifier: string;
                            name: string;
                            /** Format: date-time */
                            updated_at: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/oauth/resources/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Rename, enable or disable a protected resource
         * @description Needs `tenant:manage` (a person or an API key holding it); 403 while the organization awaits approval. A disabled resource is refused as a token's `resource` (invalid_target).
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            /** @description The identifier is fixed once registered */
            requestBody: {
                content: {
                    "application/json": {
                        enabled?: boolean;
                        /** @description 1 to 255 characters, no control characters; shown on the consent screen */
                        name?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            created_at: string;
                            enabled: boolean;
                            /** Format: uuid */
                            id: string;
                            /** @description RFC 8707 resource identifier; the `aud` of tokens minted for it */
                            identifier: string;
                            name: string;
                            /** Format: date-time */
                            updated_at: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/v1/oauth/token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * OAuth token endpoint
         * @description Form-encoded (RFC 6749 sections 4.1.3, 4.4 and 6). Client authentication: HTTP Basic with the form-encoded id and secret, or the client_id and client_secret form fields, never both. A `DPoP` proof binds the token (token_type DPoP). Errors are RFC 6749 section 5.2 JSON: 400 invalid_request, invalid_grant (naming the reason), unsupported_grant_type, unauthorized_client, invalid_scope, invalid_target, invalid_dpop_proof; 401 invalid_client; 429 temporarily_unavailable with Retry-After and RateLimit headers (per-client plan allowance per 5 minutes, 10 failed authentications per client id and address, 50 per address, 300 unauthenticated requests per address). Answers are never cached.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/x-www-form-urlencoded": {
                        /** @description The client id, when HTTP Basic is not used */
                        client_id?: string;
                        /** @description The client secret, when HTTP Basic is not used (never both) */
                        client_secret?: string;
                        /** @description authorization_code: the code from the redirect */
                        code?: string;
                        /** @description authorization_code: the PKCE verifier (43-128 characters) */
                        code_verifier?: string;
                        /** @description `authorization_code`, `refresh_token` or `client_credentials` */
                        grant_type: string;
                        /** @description authorization_code: the redirect URI of the authorization request, exactly */
                        redirect_uri?: string;
                        /** @description refresh_token: the current refresh token (rotated on use) */
                        refresh_token?: string;
                        /** @description RFC 8707 resource identifier registered and enabled in the organization; at most one */
                        resource?: string;
                        /** @description client_credentials: capped to the client's registered scopes (default: all; none registered is invalid_scope); refresh_token: a subset of the grant's (narrowing only) */
                        scope?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description RS256 JWT; its claims are not contract (Part A 2.11) */
                            access_token: string;
                            /** @description Lifetime in seconds (900 by default) */
                            expires_in: number;
                            /** @description With `openid` on a person grant (Part A 2.9) */
                            id_token?: string;
                            /** @description When the client has the refresh_token grant; rotated on each use */
                            refresh_token?: string;
                            /** @description The granted scopes, space-separated */
                            scope: string;
                            /** @description `DPoP` when a DPoP proof bound the token to its key (RFC 9449) */
                            token_type: "Bearer" | "DPoP";
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            error_description: string;
                        } | components["schemas"]["def-0"];
                    };
                };
                /** @description RFC 6749 section 5.2 */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            error_description: string;
                        };
                    };
                };
                /** @description Default Response */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description RFC 6749 section 5.2 */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            error_description: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/oauth/userinfo": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * UserInfo
         * @description Part A 2.10: `Authorization: Bearer` (or `DPoP` with a proof) with an access token from the authorization code flow. 401 with `WWW-Authenticate` error="invalid_token" when the token is invalid, bound to a resource, issued by client_credentials, or its session was revoked.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description scope email */
                            email?: string;
                            /** @description scope email */
                            email_verified?: boolean;
                            /** @description scope profile, when set */
                            family_name?: string;
                            /** @description scope profile, when set */
                            given_name?: string;
                            /** @description scope profile, when set */
                            name?: string;
                            /** @description scope profile, when set */
                            picture?: string;
                            sub: string;
                            /** @description Organization slug (display only) */
                            tenant_slug: string;
                            /**
                             * Format: uuid
                             * @description Organization id (immutable; the key to use)
                             */
                            tid: string;
                            /** @description scope profile: seconds since the epoch */
                            updated_at?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        put?: never;
        /**
         * UserInfo (POST)
         * @description As GET; the access token travels in the Authorization header.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description scope email */
                            email?: string;
                            /** @description scope email */
                            email_verified?: boolean;
                            /** @description scope profile, when set */
                            family_name?: string;
                            /** @description scope profile, when set */
                            given_name?: string;
                            /** @description scope profile, when set */
                            name?: string;
                            /** @description scope profile, when set */
                            picture?: string;
                            sub: string;
                            /** @description Organization slug (display only) */
                            tenant_slug: string;
                            /**
                             * Format: uuid
                             * @description Organization id (immutable; the key to use)
                             */
                            tid: string;
                            /** @description scope profile: seconds since the epoch */
                            updated_at?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/onboard/bootstrap": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * An agent asks to open an organization for a person (device flow)
         * @description Needs `invite_code` while public sign-up is closed: every invite failure is one identical 403. A proof of work (`pow`) is needed once the per-IP or per-network budget is half spent (403 with `pow_required`). Disposable and mail-less email domains are 400; a manifest over 64 KiB or failing its schema is 422.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        client_info?: {
                            model?: string;
                            name?: string;
                            platform?: string;
                        };
                        /** Format: email */
                        human_email: string;
                        invite_code?: string;
                        /** @description An IAM manifest (Part B 2.4), at most 64 KiB */
                        manifest?: {
                            [key: string]: unknown;
                        };
                        organization_name: string;
                        pow?: {
                            challenge: string;
                            nonce: string;
                        };
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Shown once: the agent polls with it */
                            device_code: string;
                            expires_in: number;
                            interval: number;
                            /** @description Whether the next bootstrap from this network must carry a proof of work */
                            pow_required: boolean;
                            /** @description The person enters it at `verification_uri` */
                            user_code: string;
                            verification_uri: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                            errors?: string[];
                            pow_required?: boolean;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                            errors?: string[];
                            pow_required?: boolean;
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                            errors?: string[];
                            pow_required?: boolean;
                        };
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                            errors?: string[];
                            pow_required?: boolean;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                            errors?: string[];
                            pow_required?: boolean;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/onboard/poll": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** The agent polls for the decision; the credential once on approval, then `consumed` forever */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        device_code: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            agent?: {
                                /** Format: uuid */
                                agent_id: string;
                                /** @description Shown once */
                                credential: string;
                                name: string;
                            };
                            status: "authorization_pending" | "denied" | "approved" | "consumed";
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                            status?: string;
                        };
                    };
                };
                /** @description Default Response */
                410: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                            status?: string;
                        };
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                            status?: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                            status?: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/onboard/pow": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A single-use proof-of-work challenge
         * @description Solved by a `nonce` such that SHA-256 of `challenge.nonce` has `difficulty` leading zero bits.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            challenge: string;
                            /** @description Leading zero bits SHA-256(challenge + "." + nonce) must have */
                            difficulty: number;
                            expires_in: number;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/operator/distribution-credentials": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Distribution credentials: label, public prefix, expiry, revocation, last use (never the secret) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            created_at: string;
                            /** Format: date-time */
                            expires_at: string;
                            id: string;
                            label: string;
                            last_used_at: string | null;
                            licence_pk: string;
                            /** @description The first characters of the credential, to recognise it */
                            public_prefix: string;
                            revoked_at: string | null;
                            status: "active" | "expired" | "revoked";
                        }[];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Issue a release download credential for a licence: `zdc_…` answered once
         * @description 404 for no such licence; 409 for a revoked licence; `expires_days` 1 to 1830 (default 365).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @default 365 */
                        expires_days?: number;
                        label: string;
                        /** Format: uuid */
                        licence_pk: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            created_at: string;
                            /** @description `zdc_…`, answered this once; only its SHA-256 is kept */
                            credential: string;
                            /** Format: date-time */
                            expires_at: string;
                            id: string;
                            label: string;
                            last_used_at: string | null;
                            licence_pk: string;
                            /** @description The first characters of the credential, to recognise it */
                            public_prefix: string;
                            revoked_at: string | null;
                            status: "active" | "expired" | "revoked";
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/operator/distribution-credentials/{id}/revoke": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Revoke a distribution credential: it never authenticates again */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            created_at: string;
                            /** Format: date-time */
                            expires_at: string;
                            id: string;
                            label: string;
                            last_used_at: string | null;
                            licence_pk: string;
                            /** @description The first characters of the credential, to recognise it */
                            public_prefix: string;
                            revoked_at: string | null;
                            status: "active" | "expired" | "revoked";
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/operator/invite-codes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Onboarding invite codes, newest first, each with its state */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            invite_codes: {
                                code_prefix: string;
                                consumed_at: string | null;
                                consumed_organization_id: string | null;
                                /** Format: date-time */
                                created_at: string;
                                door: "onboard" | "signup";
                                email: string;
                                /** Format: date-time */
                                expires_at: string;
                                /** Format: uuid */
                                id: string;
                                revoked_at: string | null;
                                status: "issued" | "consumed" | "revoked" | "expired";
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        put?: never;
        /** Issue an onboarding invite code bound to an address and a door (the code once) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description `onboard`: an agent bootstrap (`POST /onboard/bootstrap`); `signup`: the sign-up door */
                        door: "onboard" | "signup";
                        /** Format: email */
                        email: string;
                        /** @default 14 */
                        expires_in_days?: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Shown once; only its SHA-256 is stored */
                            code: string;
                            /** Format: date-time */
                            expires_at: string;
                            /** Format: uuid */
                            id: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/operator/invite-codes/{id}/revoke": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Revoke an onboarding invite code (409 once revoked or consumed) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            code_prefix: string;
                            consumed_at: string | null;
                            consumed_organization_id: string | null;
                            /** Format: date-time */
                            created_at: string;
                            door: "onboard" | "signup";
                            email: string;
                            /** Format: date-time */
                            expires_at: string;
                            /** Format: uuid */
                            id: string;
                            revoked_at: string | null;
                            status: "issued" | "consumed" | "revoked" | "expired";
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/operator/licences": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Licence lifecycle records, newest first (never the signed bundle) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            caps: {
                                [key: string]: number | null;
                            };
                            /** Format: date-time */
                            expires_at: string;
                            features_extra: string[];
                            /** @description The licence’s `licence_pk` */
                            id: string;
                            install_id: string;
                            /** Format: date-time */
                            issued_at: string;
                            licensee: string;
                            maintenance_days: number | null;
                            /** Format: date-time */
                            maintenance_expires_at: string;
                            plan_code: string;
                            revoked_at: string | null;
                            status: "active" | "expired" | "revoked";
                            tenant_id: string | null;
                            term_days: number;
                        }[];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Issue a licence: the signed bundle is answered once in `licence_jwt`
         * @description 503 while LICENCE_SIGNING_KEY_FILE is not set; 422 for a plan code that is not an entitlement tier.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        caps?: {
                            /** @description null is unlimited */
                            agent_writes_per_hour?: number | null;
                            /** @description null is unlimited */
                            api_calls_monthly?: number | null;
                            /** @description null is unlimited */
                            mau?: number | null;
                            /** @description null is unlimited */
                            oauth_client_requests_per_5min?: number | null;
                            /** @description null is unlimited */
                            seats?: number | null;
                        };
                        features_extra?: string[];
                        install_id: string;
                        licensee: string;
                        /** @description Default `term_days`; sets `maintenance_expires_at` */
                        maintenance_days?: number;
                        /** @description An entitlement tier, else 422 */
                        plan_code: string;
                        /** Format: uuid */
                        tenant_id?: string;
                        term_days: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            caps: {
                                [key: string]: number | null;
                            };
                            /** Format: date-time */
                            expires_at: string;
                            features_extra: string[];
                            /** @description The licence’s `licence_pk` */
                            id: string;
                            install_id: string;
                            /** Format: date-time */
                            issued_at: string;
                            /** @description The signed bundle, answered this once */
                            licence_jwt: string;
                            licensee: string;
                            maintenance_days: number | null;
                            /** Format: date-time */
                            maintenance_expires_at: string;
                            plan_code: string;
                            revoked_at: string | null;
                            status: "active" | "expired" | "revoked";
                            tenant_id: string | null;
                            term_days: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/operator/licences/{id}/revoke": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Revoke a licence: its distribution credentials stop at once (issued bundles cannot be recalled) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            caps: {
                                [key: string]: number | null;
                            };
                            /** Format: date-time */
                            expires_at: string;
                            features_extra: string[];
                            /** @description The licence’s `licence_pk` */
                            id: string;
                            install_id: string;
                            /** Format: date-time */
                            issued_at: string;
                            licensee: string;
                            maintenance_days: number | null;
                            /** Format: date-time */
                            maintenance_expires_at: string;
                            plan_code: string;
                            revoked_at: string | null;
                            status: "active" | "expired" | "revoked";
                            tenant_id: string | null;
                            term_days: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/operator/pricing": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The full editable pricing content, unpublished plans included */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            currency: string;
                            note: string;
                            plans: {
                                blurb: string;
                                cta_href: string;
                                cta_label: string;
                                highlights: string[];
                                name: string;
                                period: string | null;
                                plan_code: "free" | "pro" | "enterprise";
                                popular: boolean;
                                price: number | null;
                                published: boolean;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        /**
         * Replace the pricing content; GET /pricing serves it at once on every node
         * @description 422 for a `plan_code` that is not an entitlement tier, naming it, and for any field out of shape.
         */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        currency: string;
                        note: string;
                        plans: {
                            blurb: string;
                            cta_href: string;
                            cta_label: string;
                            highlights: string[];
                            name: string;
                            period: string | null;
                            plan_code: "free" | "pro" | "enterprise";
                            popular: boolean;
                            price: number | null;
                            published: boolean;
                        }[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            currency: string;
                            note: string;
                            plans: {
                                blurb: string;
                                cta_href: string;
                                cta_label: string;
                                highlights: string[];
                                name: string;
                                period: string | null;
                                plan_code: "free" | "pro" | "enterprise";
                                popular: boolean;
                                price: number | null;
                                published: boolean;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/operator/releases": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The release catalogue, yanked releases included */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            checksum_sha256: string;
                            /** Format: date-time */
                            created_at: string;
                            object_key: string;
                            /** Format: date-time */
                            published_at: string;
                            size_bytes: number;
                            status: "published" | "yanked";
                            version: string;
                            yanked_at: string | null;
                        }[];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Publish a release (immutable once published)
         * @description 409 when the version exists; 422 for a version that is not vX.Y.Z or a malformed checksum.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description 64 hexadecimal characters, else 422 */
                        checksum_sha256: string;
                        object_key: string;
                        /**
                         * Format: date-time
                         * @description The commercial date the maintenance term covers
                         */
                        published_at: string;
                        size_bytes: number;
                        /** @description Strictly vX.Y.Z, else 422 */
                        version: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            checksum_sha256: string;
                            /** Format: date-time */
                            created_at: string;
                            object_key: string;
                            /** Format: date-time */
                            published_at: string;
                            size_bytes: number;
                            status: "published" | "yanked";
                            version: string;
                            yanked_at: string | null;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/operator/releases/{version}/yank": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Yank a release: it stays in the catalogue, downloads refuse it */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    version: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            checksum_sha256: string;
                            /** Format: date-time */
                            created_at: string;
                            object_key: string;
                            /** Format: date-time */
                            published_at: string;
                            size_bytes: number;
                            status: "published" | "yanked";
                            version: string;
                            yanked_at: string | null;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/operator/tenants": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The organizations of the installation, by slug, one page at a time */
        get: {
            parameters: {
                query?: {
                    /** @description The `next_cursor` of the previous page: the rows after it */
                    cursor?: string;
                    limit?: number;
                    /** @description Part of the slug or the name */
                    q?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Pass as `cursor` for the next page */
                            next_cursor: string | null;
                            tenants: {
                                /** Format: date-time */
                                created_at: string;
                                id: string;
                                name: string;
                                plan_code: string;
                                quarantined: boolean;
                                slug: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/operator/tenants/{id}/config": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every setting of an organization with its risk; the operator's own are editable */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            settings: {
                                allowed?: string[];
                                bounds?: {
                                    max: number;
                                    min: number;
                                };
                                default: boolean | number | string;
                                /** @description true: an operator setting the platform operator sets here; false: the organization's own setting, shown read-only */
                                editable: boolean;
                                key: string;
                                overridden: boolean;
                                risk: "low" | "medium" | "high";
                                summary: string;
                                type: "boolean" | "integer" | "string";
                                value: boolean | number | string;
                            }[];
                            tenant_id: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/operator/tenants/{id}/config/{key}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Set one operator setting of an organization (audited in that organization)
         * @description 400 stating the bounds; 403 for one of the organization's own settings (not editable here); 404 for an unknown key or organization.
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    key: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        value: unknown;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            allowed?: string[];
                            bounds?: {
                                max: number;
                                min: number;
                            };
                            default: boolean | number | string;
                            /** @description true: an operator setting the platform operator sets here; false: the organization's own setting, shown read-only */
                            editable: boolean;
                            key: string;
                            overridden: boolean;
                            risk: "low" | "medium" | "high";
                            summary: string;
                            type: "boolean" | "integer" | "string";
                            value: boolean | number | string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/v1/operator/tenants/{id}/plan": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Set an organization's plan; seats and features follow at once
         * @description A downgrade removes nothing: what the organization has stays readable and removable, and what the new plan lacks is refused with 403 naming the plan. 422 for a plan code that is not an entitlement tier.
         */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description An entitlement tier: free, pro, enterprise */
                        plan_code: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            created_at: string;
                            id: string;
                            name: string;
                            plan_code: string;
                            quarantined: boolean;
                            slug: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/payments/elevations/consume": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Spend a satisfied elevation once and receive its signed attestation (payment back end)
         * @description Needs `payments:verify` (an API key or a service). `user_id`, `sid`, `action` and `context` must be exactly as bound. 409 `fingerprint_mismatch`, `not_spendable` (unsatisfied, spent, expired or dead), `session_gone`. Of concurrent consumes exactly one gets the attestation.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        action: string;
                        /** @description What the operation is about, bound exactly (canonical JSON). Numbers are integers (amounts in minor units): a number written with a fraction or an exponent, `1.0` included, is refused with 400 */
                        context?: {
                            [key: string]: unknown;
                        };
                        elevation_id: string;
                        sid: string;
                        user_id: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            action: string;
                            /** @description A JWS (RS256, `typ` `payment-attestation+jwt`) signed with the service keys published at /.well-known/jwks.json; its claims repeat the fields below */
                            attestation: string;
                            /** Format: date-time */
                            consumed_at: string;
                            context: {
                                [key: string]: unknown;
                            } | null;
                            display?: string;
                            /** Format: uuid */
                            elevation_id: string;
                            factor_categories: ("knowledge" | "possession" | "inherence")[];
                            fingerprint: string;
                            kind: "step_up" | "sca";
                            methods: string[];
                            sid: string;
                            transaction?: {
                                amount_minor: number;
                                currency: string;
                                payee: string;
                                payee_name: string;
                            };
                            /** Format: uuid */
                            user_id: string;
                            /** Format: date-time */
                            verified_at: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/payments/risk/context": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The risk context of a person’s session (payment back end)
         * @description Needs `payments:verify`. `score` (0-100, higher is riskier), `band`, every contributing factor, `unavailable` (not computed) and `degraded` (unreadable, scored worst-case: the score is then a floor). Never an exemption verdict.
         */
        get: {
            parameters: {
                query: {
                    sid: string;
                    user_id: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            band: "low" | "medium" | "high";
                            /** Format: date-time */
                            computed_at: string;
                            /** @description Factors whose input was unreadable, scored worst-case */
                            degraded: string[];
                            factors: {
                                /** @description Its input could not be read: scored worst-case */
                                degraded: boolean;
                                detail: string;
                                max_points: number;
                                /** @description `account_age`, `session_age`, `factor_strength`, `open_detections_user`, `open_detections_ip` */
                                name: string;
                                /** @description What the factor adds to the score */
                                points: number;
                                /** @description What was read (null when degraded) */
                                value: string | number | null;
                            }[];
                            /** @description Higher is riskier; a floor when anything is degraded */
                            score: number;
                            sid: string;
                            /** @description Factors not computed (no input to compute them from) */
                            unavailable: string[];
                            /** Format: uuid */
                            user_id: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/payments/sca/challenge": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Open a strong-customer-authentication elevation bound to one transaction
         * @description Bound to `action` `payment.sca` and `context` `{amount_minor, currency, payee, payee_name}`. `display` is the sentence to show the payer verbatim. Needs two different factor categories. 400 `unsupported_currency` listing the supported set, 400 `no_factor`, 400 `float_refused`.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description In minor units (cents) */
                        amount_minor: number;
                        /** @description ISO 4217 code, one of EUR, USD, GBP, CHF, SEK, DKK, NOK, PLN, JPY (400 listing them otherwise) */
                        currency: string;
                        /** @description The payee account or merchant identifier */
                        payee: string;
                        /** @description The payee as the payer knows it */
                        payee_name: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            action: string;
                            attempts_left: number;
                            categories_proven: ("knowledge" | "possession" | "inherence")[];
                            /** @description 1 for a step-up; 2 different categories for SCA */
                            categories_required: number;
                            consumed_at: string | null;
                            /** @description Exactly as bound (null when none was given) */
                            context: {
                                [key: string]: unknown;
                            } | null;
                            /** Format: date-time */
                            created_at: string;
                            /** @description SCA: the sentence to show the payer, verbatim */
                            display?: string;
                            /** Format: uuid */
                            elevation_id: string;
                            /** Format: date-time */
                            expires_at: string;
                            /** @description The action fingerprint of the one consume request that can spend it */
                            fingerprint: string;
                            kind: "step_up" | "sca";
                            /** @description The factors the person has enrolled and can verify with */
                            methods: ("totp" | "webauthn")[];
                            /** @description The session the elevation is bound to */
                            sid: string;
                            /** @description At the time of the answer: `dead` once the attempts are spent; unspent past `expires_at` is expired */
                            status: "opened" | "satisfied" | "spent" | "expired" | "dead";
                            /** Format: uuid */
                            user_id: string;
                            verified_at: string | null;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/payments/step-up": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Open an elevation bound to one exact operation (payment step-up)
         * @description The person proves a factor against it (`/verify`), then the payment back end spends it once (`/payments/elevations/consume`) with exactly the same `action` and `context`. 400 `no_factor` when no factor is enrolled; 400 `float_refused` for a number with a fraction or exponent anywhere in the body (`1.0` included: amounts are integers in minor units).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The operation, e.g. `payout.create` (`[a-z0-9_.:-]+`) */
                        action: string;
                        /** @description What the operation is about, bound exactly (canonical JSON). Numbers are integers (amounts in minor units): a number written with a fraction or an exponent, `1.0` included, is refused with 400 */
                        context?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            action: string;
                            attempts_left: number;
                            categories_proven: ("knowledge" | "possession" | "inherence")[];
                            /** @description 1 for a step-up; 2 different categories for SCA */
                            categories_required: number;
                            consumed_at: string | null;
                            /** @description Exactly as bound (null when none was given) */
                            context: {
                                [key: string]: unknown;
                            } | null;
                            /** Format: date-time */
                            created_at: string;
                            /** @description SCA: the sentence to show the payer, verbatim */
                            display?: string;
                            /** Format: uuid */
                            elevation_id: string;
                            /** Format: date-time */
                            expires_at: string;
                            /** @description The action fingerprint of the one consume request that can spend it */
                            fingerprint: string;
                            kind: "step_up" | "sca";
                            /** @description The factors the person has enrolled and can verify with */
                            methods: ("totp" | "webauthn")[];
                            /** @description The session the elevation is bound to */
                            sid: string;
                            /** @description At the time of the answer: `dead` once the attempts are spent; unspent past `expires_at` is expired */
                            status: "opened" | "satisfied" | "spent" | "expired" | "dead";
                            /** Format: uuid */
                            user_id: string;
                            verified_at: string | null;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/payments/step-up/{id}/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Prove one factor against an elevation
         * @description `{method: "totp", code}` or `{method: "webauthn", credential, credential_raw_id}`. 401 `bad_factor` burns an attempt (5; the fifth kills the ask); a TOTP step is accepted once across step-ups and sign-ins. SCA: 403 `insufficient_factors` while fewer than two different categories are proven (the factor is kept; verify another kind). 409 `not_open`.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The elevation id */
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        code: string;
                        /** @enum {string} */
                        method: "totp";
                    } | {
                        credential: {
                            authenticatorAttachment?: "platform" | "cross-platform";
                            clientExtensionResults?: {
                                [key: string]: unknown;
                            };
                            id: string;
                            rawId: string;
                            response: {
                                authenticatorData: string;
                                clientDataJSON: string;
                                signature: string;
                                userHandle?: string | null;
                            };
                            /** @enum {string} */
                            type: "public-key";
                        };
                        credential_raw_id: string;
                        /** @enum {string} */
                        method: "webauthn";
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            action: string;
                            attempts_left: number;
                            categories_proven: ("knowledge" | "possession" | "inherence")[];
                            /** @description 1 for a step-up; 2 different categories for SCA */
                            categories_required: number;
                            consumed_at: string | null;
                            /** @description Exactly as bound (null when none was given) */
                            context: {
                                [key: string]: unknown;
                            } | null;
                            /** Format: date-time */
                            created_at: string;
                            /** @description SCA: the sentence to show the payer, verbatim */
                            display?: string;
                            /** Format: uuid */
                            elevation_id: string;
                            /** Format: date-time */
                            expires_at: string;
                            /** @description The action fingerprint of the one consume request that can spend it */
                            fingerprint: string;
                            kind: "step_up" | "sca";
                            /** @description The factors the person has enrolled and can verify with */
                            methods: ("totp" | "webauthn")[];
                            /** @description The session the elevation is bound to */
                            sid: string;
                            /** @description At the time of the answer: `dead` once the attempts are spent; unspent past `expires_at` is expired */
                            status: "opened" | "satisfied" | "spent" | "expired" | "dead";
                            /** Format: uuid */
                            user_id: string;
                            verified_at: string | null;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/payments/step-up/{id}/webauthn-options": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A passkey challenge bound to this elevation (its transaction is in the challenge)
         * @description Request options for `navigator.credentials.get()`, limited to the person’s passkeys; user verification is required for SCA. A new call replaces the outstanding challenge. 404 for another person’s or session’s elevation; 409 `not_open` once it is satisfied, spent, expired or dead.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The elevation id */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            allowCredentials?: {
                                id: string;
                                transports?: string[];
                                /** @enum {string} */
                                type: "public-key";
                            }[];
                            /** @description base64url of 16 random bytes followed by the SHA-256 of the elevation binding (its id and fingerprint): the transaction is in the challenge */
                            challenge: string;
                            hints?: string[];
                            rpId?: string;
                            timeout?: number;
                            userVerification?: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/pricing": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Pricing plans; features and caps come from the entitlements catalogue */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            currency: string;
                            note: string;
                            plans: {
                                blurb: string;
                                caps: {
                                    /** @description null is unlimited */
                                    agent_writes_per_hour: number | null;
                                    /** @description null is unlimited */
                                    api_calls_monthly: number | null;
                                    /** @description null is unlimited */
                                    mau: number | null;
                                    /** @description null is unlimited */
                                    oauth_client_requests_per_5min: number | null;
                                    /** @description null is unlimited */
                                    seats: number | null;
                                };
                                cta_href: string;
                                cta_label: string;
                                features: string[];
                                highlights: string[];
                                name: string;
                                period: string | null;
                                plan_code: "free" | "pro" | "enterprise";
                                popular: boolean;
                                price: number | null;
                                published: boolean;
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/retention": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Retention policies of every data class */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            policies: {
                                archive_before_delete: boolean;
                                data_class: "events" | "dsr" | "consent_events";
                                enabled: boolean;
                                legal_hold_exempt: boolean;
                                notes: string | null;
                                retention_days: number;
                                updated_at: string | null;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/retention/{data_class}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Set the retention policy of a data class (events, dsr, consent_events)
         * @description Fields left out keep their current value; a new policy starts disabled.
         */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    data_class: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        archive_before_delete?: boolean;
                        enabled?: boolean;
                        legal_hold_exempt?: boolean;
                        notes?: string | null;
                        retention_days: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            archive_before_delete: boolean;
                            data_class: "events" | "dsr" | "consent_events";
                            enabled: boolean;
                            legal_hold_exempt: boolean;
                            notes: string | null;
                            retention_days: number;
                            updated_at: string | null;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/retention/preview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Records currently past each policy’s retention */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            generated_at: string;
                            policies: {
                                archive_before_delete: boolean;
                                /** Format: date-time */
                                cutoff: string;
                                data_class: "events" | "dsr" | "consent_events";
                                enabled: boolean;
                                held_records: number;
                                legal_hold_exempt: boolean;
                                purgeable_records: number;
                                records_past_retention: number;
                                retention_days: number;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/scim/v2/Groups": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List or filter Groups
         * @description Bearer: the organization’s SCIM token. 401 unknown token; 404 while the organization’s SCIM is paused (dormant); errors are RFC 7644 documents. 400 invalidFilter for a filter outside the supported grammar or attributes.
         */
        get: {
            parameters: {
                query?: {
                    /** @description Comma-separated attributes to return (RFC 7644 section 3.9) */
                    attributes?: string;
                    /** @description Default 100, at most 200; 0 answers only totalResults */
                    count?: number;
                    /** @description Comma-separated attributes to leave out, e.g. `members` */
                    excludedAttributes?: string;
                    /** @description RFC 7644 section 3.4.2.2: eq ne co sw ew gt ge lt le pr, and or not, ( ), attr[…] */
                    filter?: string;
                    /** @description Ignored: sorting is not supported (oldest first) */
                    sortBy?: string;
                    /** @description Ignored */
                    sortOrder?: string;
                    /** @description 1-based; below 1 counts as 1 */
                    startIndex?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            itemsPerPage: number;
                            Resources: {
                                displayName?: string;
                                externalId?: string;
                                id: string;
                                members?: ({
                                    display?: string;
                                    type?: string;
                                    value?: string;
                                } & {
                                    [key: string]: unknown;
                                })[];
                                meta?: {
                                    /** Format: date-time */
                                    created?: string;
                                    /** Format: date-time */
                                    lastModified?: string;
                                    location?: string;
                                    resourceType?: string;
                                    /** @description Weak entity tag, also sent as the ETag header */
                                    version?: string;
                                };
                                schemas: string[];
                            }[];
                            schemas: string[];
                            startIndex: number;
                            totalResults: number;
                        };
                    };
                };
                /** @description RFC 7644 section 3.12 error document */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
                /** @description RFC 7644 section 3.12 error document */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
                /** @description RFC 7644 section 3.12 error document */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
                /** @description RFC 7644 section 3.12 error document */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Create a Group
         * @description Bearer: the organization’s SCIM token. 401 unknown token; 404 while the organization’s SCIM is paused (dormant); errors are RFC 7644 documents. 409 uniqueness: displayName taken; 400 invalidValue: a member that is no User.
         */
        post: {
            parameters: {
                query?: {
                    /** @description Comma-separated attributes to return (RFC 7644 section 3.9) */
                    attributes?: string;
                    /** @description Comma-separated attributes to leave out, e.g. `members` */
                    excludedAttributes?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            /** @description A Group; see docs/scim.md */
            requestBody: {
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            displayName?: string;
                            externalId?: string;
                            id: string;
                            members?: ({
                                display?: string;
                                type?: string;
                                value?: string;
                            } & {
                                [key: string]: unknown;
                            })[];
                            meta?: {
                                /** Format: date-time */
                                created?: string;
                                /** Format: date-time */
                                lastModified?: string;
                                location?: string;
                                resourceType?: string;
                                /** @description Weak entity tag, also sent as the ETag header */
                                version?: string;
                            };
                            schemas: string[];
                        };
                    };
                };
                /** @description RFC 7644 section 3.12 error document */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
                /** @description RFC 7644 section 3.12 error document */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
                /** @description RFC 7644 section 3.12 error document */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
                /** @description RFC 7644 section 3.12 error document */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
                /** @description RFC 7644 section 3.12 error document */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
                /** @description RFC 7644 section 3.12 error document */
                412: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
                /** @description RFC 7644 section 3.12 error document */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
                /** @description RFC 7644 section 3.12 error document */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/scim/v2/Groups/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One Group
         * @description Bearer: the organization’s SCIM token. 401 unknown token; 404 while the organization’s SCIM is paused (dormant); errors are RFC 7644 documents. ETag carries meta.version; If-None-Match with it answers 304.
         */
        get: {
            parameters: {
                query?: {
                    /** @description Comma-separated attributes to return (RFC 7644 section 3.9) */
                    attributes?: string;
                    /** @description Comma-separated attributes to leave out, e.g. `members` */
                    excludedAttributes?: string;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            displayName?: string;
                            externalId?: string;
                            id: string;
                            members?: ({
                                display?: string;
                                type?: string;
                                value?: string;
                            } & {
                                [key: string]: unknown;
                            })[];
                            meta?: {
                                /** Format: date-time */
                                created?: string;
                                /** Format: date-time */
                                lastModified?: string;
                                location?: string;
                                resourceType?: string;
                                /** @description Weak entity tag, also sent as the ETag header */
                                version?: string;
                            };
                            schemas: string[];
                        };
                    };
                };
                /** @description Default Response */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description RFC 7644 section 3.12 error document */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
                /** @description RFC 7644 section 3.12 error document */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
                /** @description RFC 7644 section 3.12 error document */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
                /** @description RFC 7644 section 3.12 error document */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
            };
        };
        /**
         * Replace a Group
         * @description Bearer: the organization’s SCIM token. 401 unknown token; 404 while the organization’s SCIM is paused (dormant); errors are RFC 7644 documents. Every writable attribute is replaced (`members` left out keep theirs); If-Match with an old version answers 412.
         */
        put: {
            parameters: {
                query?: {
                    /** @description Comma-separated attributes to return (RFC 7644 section 3.9) */
                    attributes?: string;
                    /** @description Comma-separated attributes to leave out, e.g. `members` */
                    excludedAttributes?: string;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            /** @description A Group; see docs/scim.md */
            requestBody: {
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            displayName?: string;
                            externalId?: string;
                            id: string;
                            members?: ({
                                display?: string;
                                type?: string;
                                value?: string;
                            } & {
                                [key: string]: unknown;
                            })[];
                            meta?: {
                                /** Format: date-time */
                                created?: string;
                                /** Format: date-time */
                                lastModified?: string;
                                location?: string;
                                resourceType?: string;
                                /** @description Weak entity tag, also sent as the ETag header */
                                version?: string;
                            };
                            schemas: string[];
                        };
                    };
                };
                /** @description RFC 7644 section 3.12 error document */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
                /** @description RFC 7644 section 3.12 error document */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
                /** @description RFC 7644 section 3.12 error document */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
                /** @description RFC 7644 section 3.12 error document */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
                /** @description RFC 7644 section 3.12 error document */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
                /** @description RFC 7644 section 3.12 error document */
                412: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
                /** @description RFC 7644 section 3.12 error document */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
                /** @description RFC 7644 section 3.12 error document */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
            };
        };
        post?: never;
        /**
         * Delete a Group
         * @description Bearer: the organization’s SCIM token. 401 unknown token; 404 while the organization’s SCIM is paused (dormant); errors are RFC 7644 documents. If-Match with an old version answers 412.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description RFC 7644 section 3.12 error document */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
                /** @description RFC 7644 section 3.12 error document */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
                /** @description RFC 7644 section 3.12 error document */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
                /** @description RFC 7644 section 3.12 error document */
                412: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /**
         * Change a Group: rename, add or remove members (Okta and Entra styles)
         * @description Bearer: the organization’s SCIM token. 401 unknown token; 404 while the organization’s SCIM is paused (dormant); errors are RFC 7644 documents. 204 without a body; 200 with the Group when `attributes` or `excludedAttributes` is given. 400 invalidValue for a member that is no User of the organization.
         */
        patch: {
            parameters: {
                query?: {
                    /** @description Comma-separated attributes to return (RFC 7644 section 3.9) */
                    attributes?: string;
                    /** @description Comma-separated attributes to leave out, e.g. `members` */
                    excludedAttributes?: string;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            /** @description A PatchOp message; see docs/scim.md */
            requestBody: {
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            displayName?: string;
                            externalId?: string;
                            id: string;
                            members?: ({
                                display?: string;
                                type?: string;
                                value?: string;
                            } & {
                                [key: string]: unknown;
                            })[];
                            meta?: {
                                /** Format: date-time */
                                created?: string;
                                /** Format: date-time */
                                lastModified?: string;
                                location?: string;
                                resourceType?: string;
                                /** @description Weak entity tag, also sent as the ETag header */
                                version?: string;
                            };
                            schemas: string[];
                        };
                    };
                };
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description RFC 7644 section 3.12 error document */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
                /** @description RFC 7644 section 3.12 error document */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
                /** @description RFC 7644 section 3.12 error document */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
                /** @description RFC 7644 section 3.12 error document */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
                /** @description RFC 7644 section 3.12 error document */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
                /** @description RFC 7644 section 3.12 error document */
                412: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
                /** @description RFC 7644 section 3.12 error document */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
                /** @description RFC 7644 section 3.12 error document */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/v1/scim/v2/ResourceTypes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The resource types: User and Group
         * @description Bearer: the organization’s SCIM token. 401 unknown token; 404 while the organization’s SCIM is paused (dormant); errors are RFC 7644 documents.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description RFC 7644 section 3.12 error document */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
                /** @description RFC 7644 section 3.12 error document */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
                /** @description RFC 7644 section 3.12 error document */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/scim/v2/ResourceTypes/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One resource type
         * @description Bearer: the organization’s SCIM token. 401 unknown token; 404 while the organization’s SCIM is paused (dormant); errors are RFC 7644 documents.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description RFC 7644 section 3.12 error document */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
                /** @description RFC 7644 section 3.12 error document */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
                /** @description RFC 7644 section 3.12 error document */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/scim/v2/Schemas": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The User and Group schemas with their attributes
         * @description Bearer: the organization’s SCIM token. 401 unknown token; 404 while the organization’s SCIM is paused (dormant); errors are RFC 7644 documents.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description RFC 7644 section 3.12 error document */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
                /** @description RFC 7644 section 3.12 error document */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
                /** @description RFC 7644 section 3.12 error document */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/scim/v2/Schemas/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One schema, by its URI
         * @description Bearer: the organization’s SCIM token. 401 unknown token; 404 while the organization’s SCIM is paused (dormant); errors are RFC 7644 documents.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description RFC 7644 section 3.12 error document */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
                /** @description RFC 7644 section 3.12 error document */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
                /** @description RFC 7644 section 3.12 error document */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/scim/v2/ServiceProviderConfig": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * What this SCIM service supports (RFC 7644 section 5)
         * @description Bearer: the organization’s SCIM token. 401 unknown token; 404 while the organization’s SCIM is paused (dormant); errors are RFC 7644 documents.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description RFC 7644 section 3.12 error document */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
                /** @description RFC 7644 section 3.12 error document */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
                /** @description RFC 7644 section 3.12 error document */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/scim/v2/Users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List or filter Users
         * @description Bearer: the organization’s SCIM token. 401 unknown token; 404 while the organization’s SCIM is paused (dormant); errors are RFC 7644 documents. 400 invalidFilter for a filter outside the supported grammar or attributes.
         */
        get: {
            parameters: {
                query?: {
                    /** @description Comma-separated attributes to return (RFC 7644 section 3.9) */
                    attributes?: string;
                    /** @description Default 100, at most 200; 0 answers only totalResults */
                    count?: number;
                    /** @description Comma-separated attributes to leave out, e.g. `members` */
                    excludedAttributes?: string;
                    /** @description RFC 7644 section 3.4.2.2: eq ne co sw ew gt ge lt le pr, and or not, ( ), attr[…] */
                    filter?: string;
                    /** @description Ignored: sorting is not supported (oldest first) */
                    sortBy?: string;
                    /** @description Ignored */
                    sortOrder?: string;
                    /** @description 1-based; below 1 counts as 1 */
                    startIndex?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            itemsPerPage: number;
                            Resources: {
                                active?: boolean;
                                displayName?: string;
                                emails?: {
                                    display?: string;
                                    primary?: boolean;
                                    type?: string;
                                    value?: string;
                                }[];
                                externalId?: string;
                                /** @description Read-only: change it through the Groups */
                                groups?: ({
                                    display?: string;
                                    type?: string;
                                    value?: string;
                                } & {
                                    [key: string]: unknown;
                                })[];
                                id: string;
                                meta?: {
                                    /** Format: date-time */
                                    created?: string;
                                    /** Format: date-time */
                                    lastModified?: string;
                                    location?: string;
                                    resourceType?: string;
                                    /** @description Weak entity tag, also sent as the ETag header */
                                    version?: string;
                                };
                                name?: {
                                    familyName?: string;
                                    formatted?: string;
                                    givenName?: string;
                                };
                                schemas: string[];
                                userName?: string;
                            }[];
                            schemas: string[];
                            startIndex: number;
                            totalResults: number;
                        };
                    };
                };
                /** @description RFC 7644 section 3.12 error document */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
                /** @description RFC 7644 section 3.12 error document */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
                /** @description RFC 7644 section 3.12 error document */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
                /** @description RFC 7644 section 3.12 error document */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Provision a User: an account and a SCIM-managed membership (role member)
         * @description Bearer: the organization’s SCIM token. 401 unknown token; 404 while the organization’s SCIM is paused (dormant); errors are RFC 7644 documents. An address that has an account links it. 409 uniqueness: userName taken, or the address belongs to the owner or a customer; 403 seat cap reached.
         */
        post: {
            parameters: {
                query?: {
                    /** @description Comma-separated attributes to return (RFC 7644 section 3.9) */
                    attributes?: string;
                    /** @description Comma-separated attributes to leave out, e.g. `members` */
                    excludedAttributes?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            /** @description A User; see docs/scim.md */
            requestBody: {
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            active?: boolean;
                            displayName?: string;
                            emails?: {
                                display?: string;
                                primary?: boolean;
                                type?: string;
                                value?: string;
                            }[];
                            externalId?: string;
                            /** @description Read-only: change it through the Groups */
                            groups?: ({
                                display?: string;
                                type?: string;
                                value?: string;
                            } & {
                                [key: string]: unknown;
                            })[];
                            id: string;
                            meta?: {
                                /** Format: date-time */
                                created?: string;
                                /** Format: date-time */
                                lastModified?: string;
                                location?: string;
                                resourceType?: string;
                                /** @description Weak entity tag, also sent as the ETag header */
                                version?: string;
                            };
                            name?: {
                                familyName?: string;
                                formatted?: string;
                                givenName?: string;
                            };
                            schemas: string[];
                            userName?: string;
                        };
                    };
                };
                /** @description RFC 7644 section 3.12 error document */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
                /** @description RFC 7644 section 3.12 error document */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
                /** @description RFC 7644 section 3.12 error document */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
                /** @description RFC 7644 section 3.12 error document */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
                /** @description RFC 7644 section 3.12 error document */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
                /** @description RFC 7644 section 3.12 error document */
                412: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
                /** @description RFC 7644 section 3.12 error document */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
                /** @description RFC 7644 section 3.12 error document */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/scim/v2/Users/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One User
         * @description Bearer: the organization’s SCIM token. 401 unknown token; 404 while the organization’s SCIM is paused (dormant); errors are RFC 7644 documents. ETag carries meta.version; If-None-Match with it answers 304.
         */
        get: {
            parameters: {
                query?: {
                    /** @description Comma-separated attributes to return (RFC 7644 section 3.9) */
                    attributes?: string;
                    /** @description Comma-separated attributes to leave out, e.g. `members` */
                    excludedAttributes?: string;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            active?: boolean;
                            displayName?: string;
                            emails?: {
                                display?: string;
                                primary?: boolean;
                                type?: string;
                                value?: string;
                            }[];
                            externalId?: string;
                            /** @description Read-only: change it through the Groups */
                            groups?: ({
                                display?: string;
                                type?: string;
                                value?: string;
                            } & {
                                [key: string]: unknown;
                            })[];
                            id: string;
                            meta?: {
                                /** Format: date-time */
                                created?: string;
                                /** Format: date-time */
                                lastModified?: string;
                                location?: string;
                                resourceType?: string;
                                /** @description Weak entity tag, also sent as the ETag header */
                                version?: string;
                            };
                            name?: {
                                familyName?: string;
                                formatted?: string;
                                givenName?: string;
                            };
                            schemas: string[];
                            userName?: string;
                        };
                    };
                };
                /** @description Default Response */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description RFC 7644 section 3.12 error document */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
                /** @description RFC 7644 section 3.12 error document */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
                /** @description RFC 7644 section 3.12 error document */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
                /** @description RFC 7644 section 3.12 error document */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
            };
        };
        /**
         * Replace a User
         * @description Bearer: the organization’s SCIM token. 401 unknown token; 404 while the organization’s SCIM is paused (dormant); errors are RFC 7644 documents. Every writable attribute is replaced (`active` left out keeps its value); If-Match with an old version answers 412.
         */
        put: {
            parameters: {
                query?: {
                    /** @description Comma-separated attributes to return (RFC 7644 section 3.9) */
                    attributes?: string;
                    /** @description Comma-separated attributes to leave out, e.g. `members` */
                    excludedAttributes?: string;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            /** @description A User; see docs/scim.md */
            requestBody: {
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            active?: boolean;
                            displayName?: string;
                            emails?: {
                                display?: string;
                                primary?: boolean;
                                type?: string;
                                value?: string;
                            }[];
                            externalId?: string;
                            /** @description Read-only: change it through the Groups */
                            groups?: ({
                                display?: string;
                                type?: string;
                                value?: string;
                            } & {
                                [key: string]: unknown;
                            })[];
                            id: string;
                            meta?: {
                                /** Format: date-time */
                                created?: string;
                                /** Format: date-time */
                                lastModified?: string;
                                location?: string;
                                resourceType?: string;
                                /** @description Weak entity tag, also sent as the ETag header */
                                version?: string;
                            };
                            name?: {
                                familyName?: string;
                                formatted?: string;
                                givenName?: string;
                            };
                            schemas: string[];
                            userName?: string;
                        };
                    };
                };
                /** @description RFC 7644 section 3.12 error document */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
                /** @description RFC 7644 section 3.12 error document */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
                /** @description RFC 7644 section 3.12 error document */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
                /** @description RFC 7644 section 3.12 error document */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
                /** @description RFC 7644 section 3.12 error document */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
                /** @description RFC 7644 section 3.12 error document */
                412: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
                /** @description RFC 7644 section 3.12 error document */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
                /** @description RFC 7644 section 3.12 error document */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
            };
        };
        post?: never;
        /**
         * Deprovision a User: the membership is removed and the person’s sessions end
         * @description Bearer: the organization’s SCIM token. 401 unknown token; 404 while the organization’s SCIM is paused (dormant); errors are RFC 7644 documents. If-Match with an old version answers 412.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description RFC 7644 section 3.12 error document */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
                /** @description RFC 7644 section 3.12 error document */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
                /** @description RFC 7644 section 3.12 error document */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
                /** @description RFC 7644 section 3.12 error document */
                412: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /**
         * Change a User (RFC 7644 PATCH, as Okta and Entra send it); active false signs the person out
         * @description Bearer: the organization’s SCIM token. 401 unknown token; 404 while the organization’s SCIM is paused (dormant); errors are RFC 7644 documents. All operations apply or none. 400 with scimType invalidSyntax, invalidPath, noTarget, invalidValue or mutability; 409 uniqueness; 412 If-Match with an old version.
         */
        patch: {
            parameters: {
                query?: {
                    /** @description Comma-separated attributes to return (RFC 7644 section 3.9) */
                    attributes?: string;
                    /** @description Comma-separated attributes to leave out, e.g. `members` */
                    excludedAttributes?: string;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            /** @description A PatchOp message; see docs/scim.md */
            requestBody: {
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            active?: boolean;
                            displayName?: string;
                            emails?: {
                                display?: string;
                                primary?: boolean;
                                type?: string;
                                value?: string;
                            }[];
                            externalId?: string;
                            /** @description Read-only: change it through the Groups */
                            groups?: ({
                                display?: string;
                                type?: string;
                                value?: string;
                            } & {
                                [key: string]: unknown;
                            })[];
                            id: string;
                            meta?: {
                                /** Format: date-time */
                                created?: string;
                                /** Format: date-time */
                                lastModified?: string;
                                location?: string;
                                resourceType?: string;
                                /** @description Weak entity tag, also sent as the ETag header */
                                version?: string;
                            };
                            name?: {
                                familyName?: string;
                                formatted?: string;
                                givenName?: string;
                            };
                            schemas: string[];
                            userName?: string;
                        };
                    };
                };
                /** @description RFC 7644 section 3.12 error document */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
                /** @description RFC 7644 section 3.12 error document */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
                /** @description RFC 7644 section 3.12 error document */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
                /** @description RFC 7644 section 3.12 error document */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
                /** @description RFC 7644 section 3.12 error document */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
                /** @description RFC 7644 section 3.12 error document */
                412: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
                /** @description RFC 7644 section 3.12 error document */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
                /** @description RFC 7644 section 3.12 error document */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-4"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/v1/tenants/api-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List API keys (handles, never the keys) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            created_at: string;
                            /** @description Prefix and suffix of the key, middle elided */
                            display_handle: string;
                            expires_at: string | null;
                            /** Format: uuid */
                            id: string;
                            label: string;
                            last_used_at: string | null;
                            reason: string | null;
                            revoked: boolean;
                            revoked_at: string | null;
                            rotated_from_id: string | null;
                            /** @description Permission codes the key holds */
                            scopes: string[];
                        }[];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                        };
                    };
                };
            };
        };
        put?: never;
        /** Create an API key (the plaintext is returned once) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        expires_in_days?: number | null;
                        label: string;
                        scopes: string[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            created_at: string;
                            /** @description Prefix and suffix of the key, middle elided */
                            display_handle: string;
                            expires_at: string | null;
                            /** Format: uuid */
                            id: string;
                            label: string;
                            last_used_at: string | null;
                            reason: string | null;
                            revoked: boolean;
                            revoked_at: string | null;
                            rotated_from_id: string | null;
                            /** @description Permission codes the key holds */
                            scopes: string[];
                        } & {
                            /** @description The plaintext key: shown once, store it now */
                            key: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                        };
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tenants/api-keys/{id}/revoke": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Revoke a key; refused from its next request on */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        reason: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            created_at: string;
                            /** @description Prefix and suffix of the key, middle elided */
                            display_handle: string;
                            expires_at: string | null;
                            /** Format: uuid */
                            id: string;
                            label: string;
                            last_used_at: string | null;
                            reason: string | null;
                            revoked: boolean;
                            revoked_at: string | null;
                            rotated_from_id: string | null;
                            /** @description Permission codes the key holds */
                            scopes: string[];
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                        };
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tenants/api-keys/{id}/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Issue a successor with the same scopes; the old key works until revoked */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            created_at: string;
                            /** @description Prefix and suffix of the key, middle elided */
                            display_handle: string;
                            expires_at: string | null;
                            /** Format: uuid */
                            id: string;
                            label: string;
                            last_used_at: string | null;
                            reason: string | null;
                            revoked: boolean;
                            revoked_at: string | null;
                            rotated_from_id: string | null;
                            /** @description Permission codes the key holds */
                            scopes: string[];
                        } & {
                            /** @description The plaintext key: shown once, store it now */
                            key: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tenants/api-keys/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Calls per key this month (or `period`) against the monthly quota */
        get: {
            parameters: {
                query?: {
                    /** @description YYYY-MM (UTC) */
                    period?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            period: string;
                            quota: number | null;
                            rows: {
                                /** Format: uuid */
                                api_key_id: string;
                                calls: number;
                                display_handle: string | null;
                                label: string | null;
                            }[];
                            total: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                        };
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tenants/config/{key}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change one setting
         * @description 404 for an unknown key; 400 stating the violated type, bound or allowed set.
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    key: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        value: unknown;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            allowed?: string[];
                            bounds?: {
                                max: number;
                                min: number;
                            };
                            default: boolean | number | string;
                            /** @enum {string} */
                            format?: "instant";
                            key: string;
                            overridden: boolean;
                            risk: "low" | "medium" | "high";
                            summary: string;
                            type: "boolean" | "integer" | "string";
                            value: boolean | number | string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                        };
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                        };
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/v1/tenants/config/{key}/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Changes of one setting, newest first (who, old, new, when) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    key: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            changed_at: string;
                            changed_by: {
                                id: string | null;
                                type: string;
                            };
                            key: string;
                            new_value: boolean | number | string;
                            old_value: boolean | number | string;
                        }[];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tenants/config/schema": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every tenant-editable setting with its type, default, value and bounds */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            allowed?: string[];
                            bounds?: {
                                max: number;
                                min: number;
                            };
                            default: boolean | number | string;
                            /** @enum {string} */
                            format?: "instant";
                            key: string;
                            overridden: boolean;
                            risk: "low" | "medium" | "high";
                            summary: string;
                            type: "boolean" | "integer" | "string";
                            value: boolean | number | string;
                        }[];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tenants/scim": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The organization’s SCIM configuration (never the token)
         * @description Needs `tenant:manage` (a person or an API key holding it); 403 while the organization awaits approval. 404 while SCIM is not configured (no token): SCIM is dormant then.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description The SCIM base URL to configure at the identity provider */
                            base_url: string;
                            /** Format: date-time */
                            created_at: string;
                            /** @description false pauses provisioning: the token then gets 404 on every SCIM route */
                            enabled: boolean;
                            /** Format: date-time */
                            token_created_at: string;
                            /** @description The token’s prefix and first four characters of its secret */
                            token_hint: string;
                            /** Format: date-time */
                            updated_at: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Pause or resume SCIM provisioning
         * @description Needs `tenant:manage` (a person or an API key holding it); 403 while the organization awaits approval. 404 while SCIM is not configured (no token): SCIM is dormant then. `enabled: false` keeps the token; the SCIM routes answer it 404 until re-enabled.
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        enabled?: boolean;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description The SCIM base URL to configure at the identity provider */
                            base_url: string;
                            /** Format: date-time */
                            created_at: string;
                            /** @description false pauses provisioning: the token then gets 404 on every SCIM route */
                            enabled: boolean;
                            /** Format: date-time */
                            token_created_at: string;
                            /** @description The token’s prefix and first four characters of its secret */
                            token_hint: string;
                            /** Format: date-time */
                            updated_at: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/v1/tenants/scim/token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Mint or rotate the SCIM token (returned once, with the base URL to configure)
         * @description Needs `tenant:manage`; 403 while the organization awaits approval. The first token configures SCIM (enabled); a new one replaces the previous token, which stops working at once.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description The SCIM base URL to configure at the identity provider */
                            base_url: string;
                            /** Format: date-time */
                            created_at: string;
                            /** @description false pauses provisioning: the token then gets 404 on every SCIM route */
                            enabled: boolean;
                            /** Format: date-time */
                            token_created_at: string;
                            /** @description The token’s prefix and first four characters of its secret */
                            token_hint: string;
                            /** Format: date-time */
                            updated_at: string;
                        } & {
                            /** @description The bearer token: shown only now, store it now (only its SHA-256 is kept) */
                            token: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        /**
         * Revoke the SCIM token: it stops at once and SCIM is dormant again
         * @description Needs `tenant:manage` (a person or an API key holding it); 403 while the organization awaits approval. 404 while SCIM is not configured (no token): SCIM is dormant then. Provisioned users and groups stay as they are.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tenants/settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Legacy: customer self-registration switch (auth.ciam_signup_enabled) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            ciam_signup_enabled: boolean;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Legacy: change customer self-registration (recorded like PATCH /tenants/config/{key}) */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        ciam_signup_enabled: unknown;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            ciam_signup_enabled: boolean;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                        };
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                        };
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/v1/tenants/sso/enforcement": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Whether the organization requires SSO
         * @description Needs `tenant:manage` (a person or an API key holding it); 403 while the organization awaits approval. 404 while no identity provider is configured: SSO is dormant then.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            required: boolean;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        /**
         * Require SSO, or stop requiring it
         * @description Needs `tenant:manage` (a person or an API key holding it); 403 while the organization awaits approval. 404 while no identity provider is configured: SSO is dormant then. Changing the connection also needs a person whose session signed in with their account’s own factors (not through SSO) within 10 minutes (403 otherwise, also for API keys); each change is mailed to every owner and raises a detection. Once required, password, magic-link and passkey sign-in answer 403 to members who are not owners (owners pass: break-glass). Requiring needs a plan with Enterprise SSO (403), an enabled connection and a passed connection test of its current configuration (409); turning it off is always allowed.
         */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        required: boolean;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            required: boolean;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tenants/sso/oidc": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The organization’s OIDC identity provider (never the client secret)
         * @description Needs `tenant:manage` (a person or an API key holding it); 403 while the organization awaits approval. 404 while no identity provider is configured: SSO is dormant then.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            allowed_domains: string[];
                            client_id: string;
                            /** @description Whether a client secret is stored (sealed; it is never answered). false only on a connection an IAM manifest scaffolded: it stays disabled until a PUT gives it its secret */
                            client_secret_set: boolean;
                            /** Format: date-time */
                            created_at: string;
                            /** @description The role of people this connection makes members (set by a manifest; kept by PUT); null: `member` */
                            default_role: string | null;
                            /** @description The display name of the manifest that scaffolded the connection; null otherwise */
                            display_name: string | null;
                            enabled: boolean;
                            issuer: string;
                            /** @description The last connection test of this issuer, client id and secret; null when untested since one of them changed */
                            last_test: {
                                ok: boolean;
                                /** Format: date-time */
                                tested_at: string;
                            } | null;
                            scopes: string[];
                            /** Format: date-time */
                            updated_at: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        /**
         * Configure or replace the OIDC identity provider
         * @description Changing the connection also needs a person whose session signed in with their account’s own factors (not through SSO) within 10 minutes (403 otherwise, also for API keys); each change is mailed to every owner and raises a detection. Needs `tenant:manage` and a plan with Enterprise SSO (403 naming the plan otherwise). 201 when this creates the connection, 200 when it replaces it. 422 names the field: issuer not https on 443 with a public host name, scopes without `openid`, a malformed domain, or no client secret on first configuration or with a changed issuer or client_id, or none while enabling a connection a manifest scaffolded without one. Changing issuer, client id or secret resets `last_test` and turns enforcement off; `enabled: false` turns it off too.
         */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Email domains whose people may sign in through this connection, among the domains the organization verified (it narrows them, never widens them); empty or omitted: every verified domain */
                        allowed_domains?: string[];
                        /** @description The client id this organization registered at its identity provider */
                        client_id: string;
                        /** @description Required on first configuration and whenever issuer or client_id change; omitted otherwise, the stored secret is kept. Never answered. */
                        client_secret?: string;
                        /** @description Default true; false keeps the configuration and turns enforcement off */
                        enabled?: boolean;
                        /** @description The identity provider’s issuer URL, exactly as its discovery document names it (https, port 443) */
                        issuer: string;
                        /** @description Requested scopes; must include `openid`. Default `openid email profile` */
                        scopes?: string[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            allowed_domains: string[];
                            client_id: string;
                            /** @description Whether a client secret is stored (sealed; it is never answered). false only on a connection an IAM manifest scaffolded: it stays disabled until a PUT gives it its secret */
                            client_secret_set: boolean;
                            /** Format: date-time */
                            created_at: string;
                            /** @description The role of people this connection makes members (set by a manifest; kept by PUT); null: `member` */
                            default_role: string | null;
                            /** @description The display name of the manifest that scaffolded the connection; null otherwise */
                            display_name: string | null;
                            enabled: boolean;
                            issuer: string;
                            /** @description The last connection test of this issuer, client id and secret; null when untested since one of them changed */
                            last_test: {
                                ok: boolean;
                                /** Format: date-time */
                                tested_at: string;
                            } | null;
                            scopes: string[];
                            /** Format: date-time */
                            updated_at: string;
                        };
                    };
                };
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            allowed_domains: string[];
                            client_id: string;
                            /** @description Whether a client secret is stored (sealed; it is never answered). false only on a connection an IAM manifest scaffolded: it stays disabled until a PUT gives it its secret */
                            client_secret_set: boolean;
                            /** Format: date-time */
                            created_at: string;
                            /** @description The role of people this connection makes members (set by a manifest; kept by PUT); null: `member` */
                            default_role: string | null;
                            /** @description The display name of the manifest that scaffolded the connection; null otherwise */
                            display_name: string | null;
                            enabled: boolean;
                            issuer: string;
                            /** @description The last connection test of this issuer, client id and secret; null when untested since one of them changed */
                            last_test: {
                                ok: boolean;
                                /** Format: date-time */
                                tested_at: string;
                            } | null;
                            scopes: string[];
                            /** Format: date-time */
                            updated_at: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        post?: never;
        /**
         * Remove the OIDC identity provider: SSO is dormant again and no longer required
         * @description Needs `tenant:manage` (a person or an API key holding it); 403 while the organization awaits approval. 404 while no identity provider is configured: SSO is dormant then. Changing the connection also needs a person whose session signed in with their account’s own factors (not through SSO) within 10 minutes (403 otherwise, also for API keys); each change is mailed to every owner and raises a detection. Removing the connection also turns enforcement off, so members can sign in again.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tenants/sso/oidc/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Test the connection: discovery, key set and client credentials
         * @description Needs `tenant:manage` (a person or an API key holding it); 403 while the organization awaits approval. 404 while no identity provider is configured: SSO is dormant then. 403 on a plan without Enterprise SSO. An upstream failure is a result (200 with `ok: false` and the failing check’s detail), never an error of this service; the credentials check of a connection without a secret (a manifest’s scaffold) fails as not run. 429 with `Retry-After` past 10 tests a minute per organization.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            checks: {
                                detail: string;
                                name: "discovery" | "jwks" | "credentials";
                                ok: boolean;
                            }[];
                            /** @description true when every check passed */
                            ok: boolean;
                            /** Format: date-time */
                            tested_at: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tenants/sso/saml": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The organization’s SAML identity provider
         * @description Needs `tenant:manage` (a person or an API key holding it); 403 while the organization awaits approval. 404 while no SAML identity provider is configured: SAML is dormant then.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            allowed_domains: string[];
                            /** @description One per certificate, in the same order: to tell them apart and see one expire */
                            certificates: {
                                fingerprint_sha256: string;
                                /** Format: date-time */
                                not_after: string;
                                /** Format: date-time */
                                not_before: string;
                                subject: string;
                            }[];
                            /** Format: date-time */
                            created_at: string;
                            enabled: boolean;
                            /** @description PEM */
                            idp_certificates: string[];
                            idp_entity_id: string;
                            slo_url: string | null;
                            sso_url: string;
                            /** Format: date-time */
                            updated_at: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        /**
         * Configure or replace the SAML identity provider
         * @description Changing the connection also needs a person whose session signed in with their account’s own factors (not through SSO) within 10 minutes (403 otherwise, also for API keys); each change is mailed to every owner and raises a detection. Needs a plan with Enterprise SSO (403 naming the plan otherwise). 201 when this creates the connection, 200 when it replaces it. 422 names the field: an entity id with white space, an endpoint that is not an absolute https URL (or carries credentials or a fragment), a certificate that is not X.509, more than 5 certificates, a malformed domain, an unknown field.
         */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Email domains whose people may sign in through this connection, among the domains the organization verified (it narrows them, never widens them); empty or omitted: every verified domain */
                        allowed_domains?: string[];
                        /** @description Default true; false keeps the configuration and stops sign-in and logout */
                        enabled?: boolean;
                        /** @description Its signing certificates, PEM or bare base64 (as in metadata); an assertion must be signed by one. Two during a key rotation. */
                        idp_certificates: string[];
                        /** @description The identity provider’s entity id: the Issuer of its assertions, compared exactly */
                        idp_entity_id: string;
                        /** @description Omitted or null: single logout is off (`/slo` answers 404) */
                        slo_url?: string | null;
                        /** @description Its SingleSignOnService for the HTTP-Redirect binding (https) */
                        sso_url: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            allowed_domains: string[];
                            /** @description One per certificate, in the same order: to tell them apart and see one expire */
                            certificates: {
                                fingerprint_sha256: string;
                                /** Format: date-time */
                                not_after: string;
                                /** Format: date-time */
                                not_before: string;
                                subject: string;
                            }[];
                            /** Format: date-time */
                            created_at: string;
                            enabled: boolean;
                            /** @description PEM */
                            idp_certificates: string[];
                            idp_entity_id: string;
                            slo_url: string | null;
                            sso_url: string;
                            /** Format: date-time */
                            updated_at: string;
                        };
                    };
                };
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            allowed_domains: string[];
                            /** @description One per certificate, in the same order: to tell them apart and see one expire */
                            certificates: {
                                fingerprint_sha256: string;
                                /** Format: date-time */
                                not_after: string;
                                /** Format: date-time */
                                not_before: string;
                                subject: string;
                            }[];
                            /** Format: date-time */
                            created_at: string;
                            enabled: boolean;
                            /** @description PEM */
                            idp_certificates: string[];
                            idp_entity_id: string;
                            slo_url: string | null;
                            sso_url: string;
                            /** Format: date-time */
                            updated_at: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        post?: never;
        /**
         * Remove the SAML identity provider: SAML is dormant again
         * @description Needs `tenant:manage` (a person or an API key holding it); 403 while the organization awaits approval. 404 while no SAML identity provider is configured: SAML is dormant then. Changing the connection also needs a person whose session signed in with their account’s own factors (not through SSO) within 10 minutes (403 otherwise, also for API keys); each change is mailed to every owner and raises a detection.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tenants/sso/saml/import-metadata": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Configure the SAML identity provider from its metadata
         * @description The body is the identity provider’s SAML 2.0 metadata (`application/samlmetadata+xml`, `application/xml` or `text/xml`; other types 415; at most 1 MB). Takes its entity id, HTTP-Redirect SingleSignOnService and SingleLogoutService and signing certificates; `allowed_domains` and `enabled` keep their current values (defaults on a new connection). Changing the connection also needs a person whose session signed in with their account’s own factors (not through SSO) within 10 minutes (403 otherwise, also for API keys); each change is mailed to every owner and raises a detection. Needs a plan with Enterprise SSO (403 naming the plan otherwise). 201 when this creates the connection, 200 when it replaces it. 422 when the document has a DTD, is not well-formed, or lacks an entity id, a redirect SingleSignOnService or a signing certificate. Its own signature is not checked.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            /** @description The metadata XML */
            requestBody: {
                content: {
                    "application/samlmetadata+xml": string;
                    "application/xml": string;
                    "text/xml": string;
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            allowed_domains: string[];
                            /** @description One per certificate, in the same order: to tell them apart and see one expire */
                            certificates: {
                                fingerprint_sha256: string;
                                /** Format: date-time */
                                not_after: string;
                                /** Format: date-time */
                                not_before: string;
                                subject: string;
                            }[];
                            /** Format: date-time */
                            created_at: string;
                            enabled: boolean;
                            /** @description PEM */
                            idp_certificates: string[];
                            idp_entity_id: string;
                            slo_url: string | null;
                            sso_url: string;
                            /** Format: date-time */
                            updated_at: string;
                        };
                    };
                };
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            allowed_domains: string[];
                            /** @description One per certificate, in the same order: to tell them apart and see one expire */
                            certificates: {
                                fingerprint_sha256: string;
                                /** Format: date-time */
                                not_after: string;
                                /** Format: date-time */
                                not_before: string;
                                subject: string;
                            }[];
                            /** Format: date-time */
                            created_at: string;
                            enabled: boolean;
                            /** @description PEM */
                            idp_certificates: string[];
                            idp_entity_id: string;
                            slo_url: string | null;
                            sso_url: string;
                            /** Format: date-time */
                            updated_at: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tenants/sso/saml/sp": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * What to register at the identity provider: entity id, ACS and SLO URLs
         * @description Needs `tenant:manage`. Answered before the identity provider is configured, on a plan with Enterprise SSO (403 naming the plan otherwise); once configured, on any plan.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Assertion Consumer Service, HTTP-POST binding */
                            acs_url: string;
                            /** @description This service’s entity id for the organization (the metadata URL) */
                            entity_id: string;
                            /** @description The service provider metadata, for providers that import it */
                            metadata_url: string;
                            /** @description Single logout, HTTP-Redirect binding */
                            slo_url: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tenants/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List webhook endpoints */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            created_at: string;
                            description: string;
                            disabled_reason: string | null;
                            enabled: boolean;
                            event_types: string[];
                            /** Format: uuid */
                            id: string;
                            /** Format: date-time */
                            updated_at: string;
                            url: string;
                        }[];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                        };
                    };
                };
            };
        };
        put?: never;
        /** Register an endpoint (the signing secret is returned once) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        description?: string;
                        event_types: string[];
                        url: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            created_at: string;
                            description: string;
                            disabled_reason: string | null;
                            enabled: boolean;
                            event_types: string[];
                            /** Format: uuid */
                            id: string;
                            /** Format: date-time */
                            updated_at: string;
                            url: string;
                        } & {
                            /** @description whsec_…: shown only now */
                            secret: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                        };
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tenants/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Remove an endpoint and its delivery log */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /** Update description, subscriptions or enabled (re-enabling clears the failure counter) */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        description?: string;
                        enabled?: boolean;
                        event_types?: string[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            created_at: string;
                            description: string;
                            disabled_reason: string | null;
                            enabled: boolean;
                            event_types: string[];
                            /** Format: uuid */
                            id: string;
                            /** Format: date-time */
                            updated_at: string;
                            url: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                        };
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                        };
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/v1/tenants/webhooks/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Delivery log, newest first */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            attempts: number;
                            /** Format: date-time */
                            created_at: string;
                            /** Format: uuid */
                            event_id: string;
                            event_type: string;
                            /** Format: uuid */
                            id: string;
                            last_error: string | null;
                            last_status_code: number | null;
                            next_attempt_at: string | null;
                            replay_of: string | null;
                            /** @description pending, retrying, delivered or dead_letter */
                            status: string;
                        }[];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                        };
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tenants/webhooks/{id}/deliveries/{delivery_id}/replay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Queue a new delivery of the same event (same event id); the original stays in the log */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    delivery_id: string;
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            attempts: number;
                            /** Format: date-time */
                            created_at: string;
                            /** Format: uuid */
                            event_id: string;
                            event_type: string;
                            /** Format: uuid */
                            id: string;
                            last_error: string | null;
                            last_status_code: number | null;
                            next_attempt_at: string | null;
                            replay_of: string | null;
                            /** @description pending, retrying, delivered or dead_letter */
                            status: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tenants/webhooks/{id}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** New signing secret; the previous one stays valid until the next rotation */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            created_at: string;
                            description: string;
                            disabled_reason: string | null;
                            enabled: boolean;
                            event_types: string[];
                            /** Format: uuid */
                            id: string;
                            /** Format: date-time */
                            updated_at: string;
                            url: string;
                        } & {
                            /** @description whsec_…: shown only now */
                            secret: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tenants/webhooks/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a signed svc.test event now and report the outcome (not logged) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            blocked_by_policy: boolean;
                            delivered: boolean;
                            error: string | null;
                            status_code: number | null;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tenants/webhooks/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The published webhook event catalogue */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            description: string;
                            schema_version: number;
                            type: string;
                        }[];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webauthn/credentials": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the account’s passkeys */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description The passkey is backed up (synced) by its provider */
                            backed_up: boolean;
                            /** Format: date-time */
                            created_at: string;
                            /** @description `singleDevice`, or `multiDevice` for a passkey that can be synced */
                            device_type: string;
                            /** Format: uuid */
                            id: string;
                            /** @description Last sign-in */
                            last_used_at: string | null;
                            name: string;
                            transports: string[];
                        }[];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Finish registering a passkey
         * @description The browser’s registration response (`PublicKeyCredential.toJSON()`) and an optional `name`. 400 for an invalid response, or a challenge that is expired, used already or not issued to this account.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        authenticatorAttachment?: "platform" | "cross-platform";
                        /** @description clientExtensionResults, as the browser gives them */
                        clientExtensionResults?: {
                            [key: string]: unknown;
                        };
                        /** @description Credential id, base64url */
                        id: string;
                        /** @description Shown in the list: 1 to 100 characters, no control characters; default "Passkey" */
                        name?: string;
                        /** @description Credential id, base64url */
                        rawId: string;
                        response: {
                            attestationObject: string;
                            clientDataJSON: string;
                            transports?: string[];
                        };
                        /** @enum {string} */
                        type: "public-key";
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description The passkey is backed up (synced) by its provider */
                            backed_up: boolean;
                            /** Format: date-time */
                            created_at: string;
                            /** @description `singleDevice`, or `multiDevice` for a passkey that can be synced */
                            device_type: string;
                            /** Format: uuid */
                            id: string;
                            /** @description Last sign-in */
                            last_used_at: string | null;
                            name: string;
                            transports: string[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webauthn/credentials/{id}/remove": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Remove a passkey
         * @description `password` is required when the account has one (400 when missing or wrong; 429 after repeated wrong passwords). 404 alike for an unknown passkey and another account’s. An account without a password cannot remove its last passkey (400).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The passkey’s id (from the list) */
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Required when the account has a password */
                        password?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webauthn/credentials/options": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start registering a passkey
         * @description Creation options for `navigator.credentials.create()`: a discoverable credential (resident key required), user verification preferred, the account’s passkeys excluded. The challenge is single use and expires after about 5 minutes. 403 unless the session signed in within 10 minutes (with the second factor when TOTP is on), and always for a session through an organization’s SSO (it cannot add sign-in methods).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            attestation?: string;
                            authenticatorSelection?: {
                                authenticatorAttachment?: string;
                                requireResidentKey?: boolean;
                                residentKey?: string;
                                userVerification?: string;
                            };
                            challenge: string;
                            excludeCredentials?: {
                                id: string;
                                transports?: string[];
                                /** @enum {string} */
                                type: "public-key";
                            }[];
                            extensions?: {
                                credProps?: boolean;
                            };
                            hints?: string[];
                            pubKeyCredParams: {
                                alg: number;
                                /** @enum {string} */
                                type: "public-key";
                            }[];
                            rp: {
                                id?: string;
                                name: string;
                            };
                            timeout?: number;
                            user: {
                                displayName: string;
                                id: string;
                                name: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webauthn/login/options": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start signing in with a passkey
         * @description Request options for `navigator.credentials.get()` with discoverable credentials (no `allowCredentials`), user verification preferred. The challenge is single use and expires after about 5 minutes. 429 past the per-IP budget.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            allowCredentials?: {
                                id: string;
                                transports?: string[];
                                /** @enum {string} */
                                type: "public-key";
                            }[];
                            challenge: string;
                            hints?: string[];
                            rpId?: string;
                            timeout?: number;
                            userVerification?: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webauthn/login/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sign in with a passkey
         * @description The browser’s assertion (`PublicKeyCredential.toJSON()`), `tenant_slug` and optional `use_cookie`. A user-verified passkey counts as two factors (amr `webauthn`, `mfa`) and skips the TOTP challenge. 401 `Invalid credentials` for every refusal: unknown passkey, bad assertion, unknown organization or not a member, replayed or expired challenge, suspected clone (signature counter went backwards). 403 when the organization requires SSO (after the passkey verified; owners pass).
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description RFC 9449 proof: binds the issued tokens to its key */
                    dpop?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        authenticatorAttachment?: "platform" | "cross-platform";
                        /** @description clientExtensionResults, as the browser gives them */
                        clientExtensionResults?: {
                            [key: string]: unknown;
                        };
                        id: string;
                        rawId: string;
                        response: {
                            authenticatorData: string;
                            clientDataJSON: string;
                            signature: string;
                            userHandle?: string | null;
                        };
                        /** @description The organization to sign in to */
                        tenant_slug: string;
                        /** @enum {string} */
                        type: "public-key";
                        /** @description Set the refresh token as an httpOnly cookie; the body then carries null */
                        use_cookie?: boolean;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-1"] | components["schemas"]["def-2"];
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["def-0"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Liveness: the process answers
         * @description Checks nothing else: restart the process only when this fails (docs/operating.md).
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            status: "ok";
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Readiness: database, migrations, Redis and signing keys
         * @description 200 when the node can serve; 503 naming each check that is not `ok` (route no traffic to it meanwhile).
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description database, migrations, redis (when configured), signing_keys: `ok`, or why not */
                            checks: {
                                [key: string]: string;
                            };
                            status: "ready" | "not_ready";
                        };
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description database, migrations, redis (when configured), signing_keys: `ok`, or why not */
                            checks: {
                                [key: string]: string;
                            };
                            status: "ready" | "not_ready";
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** Problem */
        "def-0": {
            detail: string;
        };
        /** TokenPair */
        "def-1": {
            access_token: string;
            /** @description Access-token lifetime in seconds */
            expires_in: number;
            /** @description null in cookie mode */
            refresh_token: string | null;
            token_type: "bearer" | "DPoP";
        };
        /** MfaRequired */
        "def-2": {
            /** @enum {boolean} */
            mfa_required: true;
            /** @description Single use, about 5 minutes, 5 code attempts: send to POST /mfa/challenge */
            mfa_token: string;
        };
        /** MfaStatus */
        "def-3": {
            /** @description Set up but not yet verified with a code */
            enrollment_pending: boolean;
            /** @description TOTP guards every sign-in */
            mfa_enabled: boolean;
            /** @description The enrollment was confirmed with a code (enables it) */
            mfa_verified: boolean;
            mfa_verified_at: string | null;
            recovery_codes_remaining: number;
        };
        /**
         * ScimError
         * @description RFC 7644 section 3.12 error document
         */
        "def-4": {
            detail: string;
            /** @description ["urn:ietf:params:scim:api:messages:2.0:Error"] */
            schemas: string[];
            /** @description invalidFilter, invalidSyntax, invalidPath, noTarget, invalidValue, mutability, uniqueness */
            scimType?: string;
            /** @description The HTTP status, as a string */
            status: string;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export type operations = Record<string, never>;
