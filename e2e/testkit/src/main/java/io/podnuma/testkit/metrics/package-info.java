/** Scraping a podnuma {@code /metrics} served over https with a token check: who scrapes, and the scrape itself. */
package io.podnuma.testkit.metrics;
