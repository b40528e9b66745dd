// Types of redis-deliveries.mjs.
import type { ClaimRequest } from "../../src/runtime/seen-store.js";

export declare const HANDOFFS: number;
export declare function delivery(i: number, worker: number): ClaimRequest;
