-- AlterTable
ALTER TABLE "saga_steps" ADD COLUMN     "last_failure_definite" BOOLEAN NOT NULL DEFAULT false;

