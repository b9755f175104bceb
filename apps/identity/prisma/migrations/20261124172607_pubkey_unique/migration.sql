-- A public key belongs to at most one agent (DESIGN §3, issue 12 finding 10). This fails while
-- two agents already share a key (possible before this rule): revoke-and-replace cannot free a key,
-- so such data must be resolved by hand (delete the duplicate agent or its key row) first.
-- CreateIndex
CREATE UNIQUE INDEX "agent_keys_pubkey_key" ON "agent_keys"("pubkey");

