-- Named service artefacts (catalog-facts §4.2, §9.2).
INSERT INTO service_facts (name, value, source_id, note) VALUES
  ('reduction_server_image', 'us-docker.pkg.dev/vertex-ai-restricted/training/reductionserver:latest', 'AP-dist', 'europe-docker and asia-docker equivalents exist; worker pool index 2; reducers use no GPUs'),
  ('reduction_server_machine_type', 'n1-highcpu-16', 'AP-dist', 'n2-highcpu-16 is also recommended; 32 Gbps each; size the reducer pool so its total bandwidth matches or exceeds pools 0 + 1');
