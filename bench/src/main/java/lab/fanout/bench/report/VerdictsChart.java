package lab.fanout.bench.report;

import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;

/**
 * The verdict matrix as a PNG heatmap, legible without the table: a row per scenario, a column per figure, coloured by
 * the bootstrap's word ({@link Bootstrap}): green where the lead is decided, the deeper the larger (full at +50 %),
 * grey where the two are within the band ("~"), amber where the interval straddles its edge ("unclear"), white where
 * no verdict is possible; each names the approaches in prose.
 */
final class VerdictsChart {

    private static final int LABEL_WIDTH = 330;
    private static final int CELL_WIDTH = 330;
    private static final int ROW_HEIGHT = 40;
    private static final double FULL_COLOUR_LEAD_PCT = 50;

    private VerdictsChart() {
    }

    /** @throws UncheckedIOException when the PNG cannot be written */
    static void draw(List<String> scenarios, List<Verdicts.Figure> figures, Map<String, Map<Verdicts.Figure,
            Verdicts.Cell>> cells, String title, Path png) {
        Charts.initialize();
        int width = LABEL_WIDTH + CELL_WIDTH * figures.size();
        int height = ROW_HEIGHT * (scenarios.size() + 2);
        BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, width, height);
        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 13));
        g.drawString(title, 8, 22);
        for (int f = 0; f < figures.size(); f++) {
            g.drawString(figures.get(f).label(), LABEL_WIDTH + f * CELL_WIDTH + 8, ROW_HEIGHT + 22);
        }
        for (int s = 0; s < scenarios.size(); s++) {
            int y = ROW_HEIGHT * (s + 2);
            g.setColor(Color.BLACK);
            g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
            g.drawString(fit(scenarios.get(s), 52), 8, y + 21);
            for (int f = 0; f < figures.size(); f++) {
                Verdicts.Cell cell = cells.get(scenarios.get(s)).get(figures.get(f));
                int x = LABEL_WIDTH + f * CELL_WIDTH;
                g.setColor(cell == null ? Color.WHITE : colour(cell));
                g.fillRect(x + 1, y + 1, CELL_WIDTH - 2, ROW_HEIGHT - 2);
                g.setColor(Color.BLACK);
                String[] lines = cell == null ? new String[0] : cell.shortText().split("\n");
                for (int l = 0; l < lines.length; l++) {
                    g.drawString(fit(lines[l], 54), x + 8, y + 16 + 15 * l);
                }
            }
        }
        g.dispose();
        try {
            ImageIO.write(image, "png", png.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + png + ": " + e.getMessage(), e);
        }
    }

    private static Color colour(Verdicts.Cell cell) {
        if (cell.word() == null) {
            return Color.WHITE;
        }
        double depth = Math.min(1, Math.abs(cell.leadPct()) / FULL_COLOUR_LEAD_PCT);
        return switch (cell.word()) {
            case "~" -> new Color(0xDD, 0xDD, 0xDD);
            case "unclear" -> new Color(0xFF, 0xE8, 0xB0);
            default -> new Color((int) (230 - 150 * depth), (int) (245 - 60 * depth), (int) (230 - 150 * depth));
        };
    }

    private static String fit(String text, int chars) {
        return text.length() <= chars ? text : text.substring(0, chars - 1) + "…";
    }
}
