-- Hand-written (issue 6, catalog): the built-in template catalog and the rules schema.prisma
-- cannot express. schema.snapshot.prisma is unchanged from the previous migration, so
-- `npm run db:diff` keeps diffing from the datamodel these tables match. Texts are dollar-quoted
-- ($t$ Markdown, $j$ JSON Schema) so they read as written. Amounts are micro-units (1 CREDIT = 1000000).

ALTER TABLE "contract_templates" ADD CONSTRAINT "contract_templates_mode_known" CHECK ("default_verification_mode" IN ('verifier', 'buyer', 'auto'));
ALTER TABLE "contract_templates" ADD CONSTRAINT "contract_templates_budget_positive"
  CHECK (("suggested_budget_amount" IS NULL AND "suggested_budget_currency" IS NULL) OR ("suggested_budget_amount" > 0 AND "suggested_budget_currency" IS NOT NULL));
ALTER TABLE "contract_templates" ADD CONSTRAINT "contract_templates_deadline_iso" CHECK ("default_deadline" ~ '^P(\d+Y)?(\d+M)?(\d+W)?(\d+D)?(T(\d+H)?(\d+M)?(\d+S)?)?$' AND "default_deadline" NOT IN ('P', 'PT'));
ALTER TABLE "fixtures" ADD CONSTRAINT "fixtures_type_known" CHECK ("type" IN ('unit_tests', 'golden_output', 'schema_validation', 'reference_dataset', 'benchmark', 'property_tests'));
ALTER TABLE "fixtures" ADD CONSTRAINT "fixtures_evidence_tier_known" CHECK ("evidence_tier" IN ('self_reported', 'verifier_checked', 'reproducible', 'attested'));
ALTER TABLE "fixtures" ADD CONSTRAINT "fixtures_determinism_known" CHECK ("determinism_class" IN ('deterministic', 'bounded', 'nondeterministic'));
-- Fixture filters (ListFixtures / ListFixtureSellers) and the newest-first order.
CREATE INDEX "fixtures_type_idx" ON "fixtures" ("type", "created_at", "fixture_id");
CREATE INDEX "contract_templates_tags_idx" ON "contract_templates" USING GIN ("tags");
CREATE INDEX "work_product_templates_tags_idx" ON "work_product_templates" USING GIN ("tags");

-- Work-product templates: the result payload's JSON Schema (draft 2020-12) and the artifacts expected.

INSERT INTO "work_product_templates" ("id", "name", "description", "tags", "payload_schema", "required_artifacts", "acceptance_criteria", "created_at", "updated_at") VALUES (
  'patch-with-tests', $t$Patch with tests$t$,
  $t$A source change as a unified diff against a named base commit, with the tests that cover it and the log of the test run.$t$,
  ARRAY['code', 'software', 'tests']::TEXT[],
  $j${
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://exchange.local/schemas/work-products/patch-with-tests",
  "title": "Patch with tests",
  "type": "object",
  "required": [
    "base_commit",
    "summary",
    "files_changed",
    "patch_ref",
    "tests"
  ],
  "additionalProperties": false,
  "properties": {
    "base_commit": {
      "type": "string",
      "pattern": "^[0-9a-f]{7,64}$",
      "description": "Commit the patch applies to (git apply --check clean)."
    },
    "summary": {
      "type": "string",
      "minLength": 1,
      "maxLength": 2000
    },
    "files_changed": {
      "type": "array",
      "minItems": 1,
      "uniqueItems": true,
      "items": {
        "type": "string",
        "minLength": 1
      }
    },
    "patch_ref": {
      "type": "string",
      "pattern": "^sha256:[0-9a-f]{64}$",
      "description": "Artifact ref of the unified diff."
    },
    "tests": {
      "type": "object",
      "required": [
        "command",
        "added",
        "passed",
        "failed",
        "log_ref"
      ],
      "additionalProperties": false,
      "properties": {
        "command": {
          "type": "string",
          "minLength": 1,
          "description": "Command that runs the test suite, e.g. npm test."
        },
        "added": {
          "type": "array",
          "items": {
            "type": "string",
            "minLength": 1
          },
          "description": "Names of the tests added or changed."
        },
        "passed": {
          "type": "integer",
          "minimum": 0
        },
        "failed": {
          "type": "integer",
          "minimum": 0,
          "maximum": 0,
          "description": "Must be 0: the whole suite passes with the patch."
        },
        "log_ref": {
          "type": "string",
          "pattern": "^sha256:[0-9a-f]{64}$",
          "description": "Artifact ref of the test run output."
        }
      }
    },
    "breaking_changes": {
      "type": "array",
      "items": {
        "type": "string"
      }
    }
  }
}$j$::jsonb,
  ARRAY['patch (unified diff, applies with git apply to base_commit)', 'test log (full output of tests.command with the patch applied)']::TEXT[],
  $t$- The patch applies cleanly to `base_commit` with `git apply`.
- `tests.command` passes with the patch applied and `tests.failed` is 0.
- Every changed behaviour is covered by a test listed in `tests.added`.
- `files_changed` lists exactly the files the patch touches.$t$,
  '2026-11-22T00:00:00.000Z', '2026-11-22T00:00:00.000Z');

INSERT INTO "work_product_templates" ("id", "name", "description", "tags", "payload_schema", "required_artifacts", "acceptance_criteria", "created_at", "updated_at") VALUES (
  'json-extraction', $t$JSON extraction$t$,
  $t$Records extracted from source documents, each valid against the contract's target JSON Schema, with provenance back to the source.$t$,
  ARRAY['data', 'extraction', 'json']::TEXT[],
  $j${
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://exchange.local/schemas/work-products/json-extraction",
  "title": "JSON extraction",
  "type": "object",
  "required": [
    "target_schema",
    "record_count",
    "records_ref",
    "sources"
  ],
  "additionalProperties": false,
  "properties": {
    "target_schema": {
      "type": "object",
      "description": "The JSON Schema every record validates against (as given in the contract)."
    },
    "record_count": {
      "type": "integer",
      "minimum": 0
    },
    "records_ref": {
      "type": "string",
      "pattern": "^sha256:[0-9a-f]{64}$",
      "description": "Artifact ref of the records as JSON Lines (one record per line)."
    },
    "sample": {
      "type": "array",
      "maxItems": 20,
      "items": {
        "type": "object"
      },
      "description": "Up to 20 records inline for a quick look."
    },
    "sources": {
      "type": "array",
      "minItems": 1,
      "items": {
        "type": "object",
        "required": [
          "source_ref",
          "records"
        ],
        "additionalProperties": false,
        "properties": {
          "source_ref": {
            "type": "string",
            "minLength": 1,
            "description": "Artifact ref or URL of the source document."
          },
          "records": {
            "type": "integer",
            "minimum": 0
          }
        }
      }
    },
    "unresolved": {
      "type": "array",
      "items": {
        "type": "object",
        "required": [
          "source_ref",
          "reason"
        ],
        "properties": {
          "source_ref": {
            "type": "string"
          },
          "location": {
            "type": "string"
          },
          "reason": {
            "type": "string"
          }
        }
      },
      "description": "Fields or items that could not be extracted, with why."
    }
  }
}$j$::jsonb,
  ARRAY['records (JSON Lines, one record per line)']::TEXT[],
  $t$- Every line of the records artifact parses as JSON and validates against `target_schema`.
- `record_count` equals the number of lines.
- Every record can be traced to an entry of `sources`; the per-source counts add up to `record_count`.
- Anything that could not be extracted is listed in `unresolved` instead of guessed.$t$,
  '2026-11-22T00:00:00.000Z', '2026-11-22T00:00:00.000Z');

INSERT INTO "work_product_templates" ("id", "name", "description", "tags", "payload_schema", "required_artifacts", "acceptance_criteria", "created_at", "updated_at") VALUES (
  'translated-document', $t$Translated document$t$,
  $t$A document translated into the target language, keeping its structure and formatting, with the glossary terms applied.$t$,
  ARRAY['translation', 'localization', 'language']::TEXT[],
  $j${
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://exchange.local/schemas/work-products/translated-document",
  "title": "Translated document",
  "type": "object",
  "required": [
    "source_language",
    "target_language",
    "source_ref",
    "translation_ref",
    "word_count"
  ],
  "additionalProperties": false,
  "properties": {
    "source_language": {
      "type": "string",
      "pattern": "^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$",
      "description": "BCP 47 tag, e.g. de or pt-BR."
    },
    "target_language": {
      "type": "string",
      "pattern": "^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$"
    },
    "source_ref": {
      "type": "string",
      "minLength": 1
    },
    "translation_ref": {
      "type": "string",
      "pattern": "^sha256:[0-9a-f]{64}$",
      "description": "Artifact ref of the translated document, same format as the source."
    },
    "word_count": {
      "type": "integer",
      "minimum": 1,
      "description": "Words in the source."
    },
    "glossary_applied": {
      "type": "boolean"
    },
    "translator_notes": {
      "type": "array",
      "items": {
        "type": "object",
        "required": [
          "location",
          "note"
        ],
        "properties": {
          "location": {
            "type": "string"
          },
          "note": {
            "type": "string"
          }
        }
      }
    }
  }
}$j$::jsonb,
  ARRAY['translated document (same file format and structure as the source)']::TEXT[],
  $t$- The whole source is translated: no untranslated or dropped passages.
- Headings, lists, tables, links and placeholders (e.g. `{name}`, `%s`) are preserved.
- Glossary terms, when given, are used consistently.
- Ambiguities and deliberate deviations are explained in `translator_notes`.$t$,
  '2026-11-22T00:00:00.000Z', '2026-11-22T00:00:00.000Z');

INSERT INTO "work_product_templates" ("id", "name", "description", "tags", "payload_schema", "required_artifacts", "acceptance_criteria", "created_at", "updated_at") VALUES (
  'research-brief', $t$Research brief$t$,
  $t$A short answer to a research question: findings, each backed by numbered citations to sources a reader can check.$t$,
  ARRAY['research', 'writing', 'citations']::TEXT[],
  $j${
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://exchange.local/schemas/work-products/research-brief",
  "title": "Research brief",
  "type": "object",
  "required": [
    "question",
    "summary",
    "findings",
    "citations"
  ],
  "additionalProperties": false,
  "properties": {
    "question": {
      "type": "string",
      "minLength": 1
    },
    "summary": {
      "type": "string",
      "minLength": 1,
      "maxLength": 4000
    },
    "findings": {
      "type": "array",
      "minItems": 1,
      "items": {
        "type": "object",
        "required": [
          "claim",
          "citations"
        ],
        "additionalProperties": false,
        "properties": {
          "claim": {
            "type": "string",
            "minLength": 1
          },
          "citations": {
            "type": "array",
            "minItems": 1,
            "items": {
              "type": "integer",
              "minimum": 1
            }
          },
          "confidence": {
            "enum": [
              "high",
              "medium",
              "low"
            ]
          }
        }
      }
    },
    "citations": {
      "type": "array",
      "minItems": 1,
      "items": {
        "type": "object",
        "required": [
          "id",
          "title",
          "url",
          "accessed_at"
        ],
        "additionalProperties": false,
        "properties": {
          "id": {
            "type": "integer",
            "minimum": 1
          },
          "title": {
            "type": "string",
            "minLength": 1
          },
          "url": {
            "type": "string",
            "format": "uri"
          },
          "accessed_at": {
            "type": "string",
            "format": "date"
          },
          "quote": {
            "type": "string",
            "maxLength": 1000
          }
        }
      }
    },
    "limitations": {
      "type": "string"
    }
  }
}$j$::jsonb,
  ARRAY['brief (Markdown rendering of the payload)']::TEXT[],
  $t$- Every finding cites at least one entry of `citations`, and every citation id exists.
- Every cited URL resolves and supports the claim it is cited for (a `quote` helps the verifier).
- The summary answers the question asked, and `limitations` says what is uncertain or out of scope.$t$,
  '2026-11-22T00:00:00.000Z', '2026-11-22T00:00:00.000Z');

INSERT INTO "work_product_templates" ("id", "name", "description", "tags", "payload_schema", "required_artifacts", "acceptance_criteria", "created_at", "updated_at") VALUES (
  'review-report', $t$Code review report$t$,
  $t$Findings of a code review: each located in a file and line, with a severity and a suggested fix, and an overall verdict.$t$,
  ARRAY['code', 'review', 'software']::TEXT[],
  $j${
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://exchange.local/schemas/work-products/review-report",
  "title": "Code review report",
  "type": "object",
  "required": [
    "target",
    "verdict",
    "summary",
    "findings"
  ],
  "additionalProperties": false,
  "properties": {
    "target": {
      "type": "object",
      "required": [
        "repository",
        "revision"
      ],
      "additionalProperties": false,
      "properties": {
        "repository": {
          "type": "string",
          "minLength": 1
        },
        "revision": {
          "type": "string",
          "minLength": 1
        },
        "paths": {
          "type": "array",
          "items": {
            "type": "string"
          }
        }
      }
    },
    "verdict": {
      "enum": [
        "approve",
        "request_changes",
        "comment"
      ]
    },
    "summary": {
      "type": "string",
      "minLength": 1,
      "maxLength": 4000
    },
    "findings": {
      "type": "array",
      "items": {
        "type": "object",
        "required": [
          "severity",
          "file",
          "line",
          "message"
        ],
        "additionalProperties": false,
        "properties": {
          "severity": {
            "enum": [
              "blocker",
              "major",
              "minor",
              "nit"
            ]
          },
          "category": {
            "enum": [
              "correctness",
              "security",
              "performance",
              "maintainability",
              "tests",
              "style"
            ]
          },
          "file": {
            "type": "string",
            "minLength": 1
          },
          "line": {
            "type": "integer",
            "minimum": 1
          },
          "message": {
            "type": "string",
            "minLength": 1
          },
          "suggestion": {
            "type": "string"
          }
        }
      }
    }
  }
}$j$::jsonb,
  ARRAY[]::TEXT[],
  $t$- Every finding names a file and line that exist at `target.revision`.
- Blockers and majors explain the failure they cause and how to fix it.
- The verdict is `request_changes` whenever a blocker is reported.$t$,
  '2026-11-22T00:00:00.000Z', '2026-11-22T00:00:00.000Z');

INSERT INTO "work_product_templates" ("id", "name", "description", "tags", "payload_schema", "required_artifacts", "acceptance_criteria", "created_at", "updated_at") VALUES (
  'labeled-dataset', $t$Labeled dataset$t$,
  $t$Items labeled with a fixed label set following written guidelines, with the labels file and agreement figures on a double-labeled sample.$t$,
  ARRAY['data', 'labeling', 'ml']::TEXT[],
  $j${
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://exchange.local/schemas/work-products/labeled-dataset",
  "title": "Labeled dataset",
  "type": "object",
  "required": [
    "label_set",
    "item_count",
    "labels_ref",
    "guidelines_version",
    "label_counts"
  ],
  "additionalProperties": false,
  "properties": {
    "label_set": {
      "type": "array",
      "minItems": 2,
      "uniqueItems": true,
      "items": {
        "type": "string",
        "minLength": 1
      }
    },
    "item_count": {
      "type": "integer",
      "minimum": 1
    },
    "labels_ref": {
      "type": "string",
      "pattern": "^sha256:[0-9a-f]{64}$",
      "description": "Artifact ref of the labels as JSON Lines: {item_id, label, note?} per line."
    },
    "guidelines_version": {
      "type": "string",
      "minLength": 1
    },
    "label_counts": {
      "type": "object",
      "additionalProperties": {
        "type": "integer",
        "minimum": 0
      }
    },
    "agreement": {
      "type": "object",
      "required": [
        "method",
        "sample_size",
        "score"
      ],
      "additionalProperties": false,
      "properties": {
        "method": {
          "enum": [
            "cohen_kappa",
            "krippendorff_alpha",
            "percent_agreement"
          ]
        },
        "sample_size": {
          "type": "integer",
          "minimum": 1
        },
        "score": {
          "type": "number",
          "minimum": -1,
          "maximum": 1
        }
      }
    }
  }
}$j$::jsonb,
  ARRAY['labels (JSON Lines: item_id, label, optional note)']::TEXT[],
  $t$- Every input item has exactly one label, taken from `label_set`.
- `label_counts` sums to `item_count` and matches the labels file.
- Labels follow the guidelines of `guidelines_version`; on a double-labeled sample the agreement is reported.$t$,
  '2026-11-22T00:00:00.000Z', '2026-11-22T00:00:00.000Z');

INSERT INTO "work_product_templates" ("id", "name", "description", "tags", "payload_schema", "required_artifacts", "acceptance_criteria", "created_at", "updated_at") VALUES (
  'integration-report', $t$API integration$t$,
  $t$Working client code for a third-party API: the patch, tests against a recorded or sandbox endpoint, and the configuration it needs.$t$,
  ARRAY['code', 'api', 'integration']::TEXT[],
  $j${
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://exchange.local/schemas/work-products/integration-report",
  "title": "API integration",
  "type": "object",
  "required": [
    "api",
    "patch_ref",
    "endpoints",
    "tests",
    "configuration"
  ],
  "additionalProperties": false,
  "properties": {
    "api": {
      "type": "object",
      "required": [
        "name",
        "base_url"
      ],
      "additionalProperties": false,
      "properties": {
        "name": {
          "type": "string",
          "minLength": 1
        },
        "base_url": {
          "type": "string",
          "format": "uri"
        },
        "version": {
          "type": "string"
        }
      }
    },
    "patch_ref": {
      "type": "string",
      "pattern": "^sha256:[0-9a-f]{64}$"
    },
    "endpoints": {
      "type": "array",
      "minItems": 1,
      "items": {
        "type": "object",
        "required": [
          "method",
          "path"
        ],
        "additionalProperties": false,
        "properties": {
          "method": {
            "enum": [
              "GET",
              "POST",
              "PUT",
              "PATCH",
              "DELETE"
            ]
          },
          "path": {
            "type": "string",
            "minLength": 1
          }
        }
      }
    },
    "tests": {
      "type": "object",
      "required": [
        "command",
        "passed",
        "failed"
      ],
      "additionalProperties": false,
      "properties": {
        "command": {
          "type": "string",
          "minLength": 1
        },
        "passed": {
          "type": "integer",
          "minimum": 1
        },
        "failed": {
          "type": "integer",
          "minimum": 0,
          "maximum": 0
        },
        "log_ref": {
          "type": "string",
          "pattern": "^sha256:[0-9a-f]{64}$"
        }
      }
    },
    "configuration": {
      "type": "array",
      "items": {
        "type": "object",
        "required": [
          "name",
          "description",
          "secret"
        ],
        "additionalProperties": false,
        "properties": {
          "name": {
            "type": "string",
            "pattern": "^[A-Z][A-Z0-9_]*$"
          },
          "description": {
            "type": "string"
          },
          "secret": {
            "type": "boolean"
          }
        }
      },
      "description": "Environment variables the integration reads; secrets are named, never included."
    },
    "error_handling": {
      "type": "string",
      "description": "How timeouts, rate limits (429) and 5xx answers are handled."
    }
  }
}$j$::jsonb,
  ARRAY['patch (unified diff)', 'test log']::TEXT[],
  $t$- Each endpoint in `endpoints` is called by the code and exercised by a test.
- Tests run without live credentials (recorded responses or the provider's sandbox) and all pass.
- Timeouts, 429 and 5xx answers are handled as `error_handling` describes.
- No credential or token appears in the patch, the tests or the logs.$t$,
  '2026-11-22T00:00:00.000Z', '2026-11-22T00:00:00.000Z');

-- A contract template names the work-product template its result follows.
ALTER TABLE "contract_templates" ADD CONSTRAINT "contract_templates_work_product_fk"
  FOREIGN KEY ("work_product_template_id") REFERENCES "work_product_templates" ("id");

-- Contract templates: defaults a contract inherits (CreateContract template_id).

INSERT INTO "contract_templates" ("id", "name", "description", "tags", "acceptance_criteria", "default_verification_mode", "default_deadline", "suggested_budget_amount", "suggested_budget_currency", "work_product_template_id", "created_at", "updated_at") VALUES (
  'code-change-with-tests', $t$Code change with tests$t$,
  $t$Implement a described change in a repository and prove it with tests. State the repository, the base commit and the behaviour wanted.$t$,
  ARRAY['code', 'software', 'tests']::TEXT[],
  $t$## Acceptance criteria

- The patch applies cleanly to the named base commit.
- The project's full test suite passes with the patch applied.
- New or changed behaviour is covered by new tests that fail without the patch.
- No unrelated changes (formatting, renames) outside the files the change needs.
- Public interfaces that change are documented in the patch.$t$,
  'verifier', 'P3D', 50000000, 'CREDIT', 'patch-with-tests',
  '2026-11-22T00:00:00.000Z', '2026-11-22T00:00:00.000Z');

INSERT INTO "contract_templates" ("id", "name", "description", "tags", "acceptance_criteria", "default_verification_mode", "default_deadline", "suggested_budget_amount", "suggested_budget_currency", "work_product_template_id", "created_at", "updated_at") VALUES (
  'bug-fix-with-regression-test', $t$Bug fix with a regression test$t$,
  $t$Fix a reported bug. Give the steps to reproduce, the expected and the actual behaviour, and the base commit.$t$,
  ARRAY['code', 'bugfix', 'tests']::TEXT[],
  $t$## Acceptance criteria

- A regression test reproduces the reported bug: it fails on the base commit and passes with the fix.
- The fix addresses the root cause, explained in one paragraph in the result summary.
- The full test suite passes with the fix applied.
- The fix does not change behaviour outside the bug's scope.$t$,
  'verifier', 'P2D', 40000000, 'CREDIT', 'patch-with-tests',
  '2026-11-22T00:00:00.000Z', '2026-11-22T00:00:00.000Z');

INSERT INTO "contract_templates" ("id", "name", "description", "tags", "acceptance_criteria", "default_verification_mode", "default_deadline", "suggested_budget_amount", "suggested_budget_currency", "work_product_template_id", "created_at", "updated_at") VALUES (
  'data-extraction-to-json-schema', $t$Data extraction to a JSON Schema$t$,
  $t$Extract structured records from documents (PDF, HTML, scans) into JSON that validates against a schema you provide in the description.$t$,
  ARRAY['data', 'extraction', 'json']::TEXT[],
  $t$## Acceptance criteria

- Every record validates against the target JSON Schema given in the contract.
- All qualifying items in the sources are extracted; the record count is reported per source.
- Values are copied as written (no invented data); what cannot be read is listed as unresolved.
- On a random sample of 20 records checked by hand, at least 19 match their source exactly.$t$,
  'buyer', 'P2D', 30000000, 'CREDIT', 'json-extraction',
  '2026-11-22T00:00:00.000Z', '2026-11-22T00:00:00.000Z');

INSERT INTO "contract_templates" ("id", "name", "description", "tags", "acceptance_criteria", "default_verification_mode", "default_deadline", "suggested_budget_amount", "suggested_budget_currency", "work_product_template_id", "created_at", "updated_at") VALUES (
  'translation', $t$Document translation$t$,
  $t$Translate a document between two languages for publication. Name the languages (BCP 47), the audience and any glossary.$t$,
  ARRAY['translation', 'localization', 'language']::TEXT[],
  $t$## Acceptance criteria

- The complete document is translated; nothing is dropped or summarised.
- Meaning is preserved; the register fits the stated audience.
- Formatting, links, numbers, units and placeholders are kept intact.
- Glossary terms are used consistently; deviations are explained in translator notes.$t$,
  'buyer', 'P3D', 25000000, 'CREDIT', 'translated-document',
  '2026-11-22T00:00:00.000Z', '2026-11-22T00:00:00.000Z');

INSERT INTO "contract_templates" ("id", "name", "description", "tags", "acceptance_criteria", "default_verification_mode", "default_deadline", "suggested_budget_amount", "suggested_budget_currency", "work_product_template_id", "created_at", "updated_at") VALUES (
  'research-brief-with-citations', $t$Research brief with citations$t$,
  $t$Answer a research question in a short brief whose every claim is backed by a checkable source.$t$,
  ARRAY['research', 'writing', 'citations']::TEXT[],
  $t$## Acceptance criteria

- The brief answers the question asked, in at most two pages.
- Every factual claim cites at least one source; every citation has a working URL and an access date.
- Sources are primary or reputable secondary ones; nothing is cited that does not support its claim.
- Limitations and open questions are stated.$t$,
  'verifier', 'P5D', 60000000, 'CREDIT', 'research-brief',
  '2026-11-22T00:00:00.000Z', '2026-11-22T00:00:00.000Z');

INSERT INTO "contract_templates" ("id", "name", "description", "tags", "acceptance_criteria", "default_verification_mode", "default_deadline", "suggested_budget_amount", "suggested_budget_currency", "work_product_template_id", "created_at", "updated_at") VALUES (
  'code-review', $t$Code review$t$,
  $t$Review a change (pull request or commit range) for correctness, security and maintainability. Give the repository and the revision.$t$,
  ARRAY['code', 'review', 'software']::TEXT[],
  $t$## Acceptance criteria

- The whole change is reviewed; the report names the revision it covers.
- Each finding points to a file and line and has a severity (blocker, major, minor, nit).
- Blockers and majors explain the failure they cause and suggest a fix.
- The verdict is consistent with the findings (request changes when there is a blocker).$t$,
  'buyer', 'P1D', 20000000, 'CREDIT', 'review-report',
  '2026-11-22T00:00:00.000Z', '2026-11-22T00:00:00.000Z');

INSERT INTO "contract_templates" ("id", "name", "description", "tags", "acceptance_criteria", "default_verification_mode", "default_deadline", "suggested_budget_amount", "suggested_budget_currency", "work_product_template_id", "created_at", "updated_at") VALUES (
  'dataset-labeling', $t$Dataset labeling$t$,
  $t$Label a set of items (text, images, records) with a fixed label set following written guidelines.$t$,
  ARRAY['data', 'labeling', 'ml']::TEXT[],
  $t$## Acceptance criteria

- Every item has exactly one label from the label set.
- Labels follow the supplied guidelines; edge cases are noted per item.
- At least 10% of the items (minimum 50) are double-labeled and the agreement is reported (Cohen's kappa ≥ 0.8 or percent agreement ≥ 90%).
- Label counts match the labels file.$t$,
  'verifier', 'P4D', 35000000, 'CREDIT', 'labeled-dataset',
  '2026-11-22T00:00:00.000Z', '2026-11-22T00:00:00.000Z');

INSERT INTO "contract_templates" ("id", "name", "description", "tags", "acceptance_criteria", "default_verification_mode", "default_deadline", "suggested_budget_amount", "suggested_budget_currency", "work_product_template_id", "created_at", "updated_at") VALUES (
  'api-integration', $t$API integration$t$,
  $t$Integrate a third-party HTTP API into a codebase: a typed client, error handling and tests. Give the API documentation URL and the target repository.$t$,
  ARRAY['code', 'api', 'integration']::TEXT[],
  $t$## Acceptance criteria

- The listed endpoints are implemented with typed requests and responses.
- Timeouts, rate limiting (429) and server errors are handled with bounded retries.
- Tests run against recorded responses or the provider's sandbox, without live credentials, and pass.
- Configuration is read from environment variables; no secret is committed.$t$,
  'verifier', 'P5D', 80000000, 'CREDIT', 'integration-report',
  '2026-11-22T00:00:00.000Z', '2026-11-22T00:00:00.000Z');

