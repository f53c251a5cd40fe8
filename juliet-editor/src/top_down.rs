//! The top-down view: the world seen from above, x to the right and z down the screen
//! (y, the height, is not shown), each entity a marker at its `Position`, coloured by
//! kind. Click a marker to select its entity; drag one to move it (one undo step a
//! drag, the height kept); drag elsewhere to pan; scroll to zoom.
//!
//! A frame paints the markers in view and nothing else: what is under the pointer is
//! looked for only on a click, at the start of a drag and while the pointer hovers.

use egui::{Align2, Color32, FontId, Pos2, Rect, Sense, Stroke, Ui, Vec2};
use juliet_entities::entity::EntityId;
use juliet_entities::glam::Vec3;

use crate::app::EditorApp;
use crate::inspector::Edit;

/// A marker's radius, in points.
const MARKER_RADIUS: f32 = 5.0;
/// How far from a marker's centre a click still picks it, in points.
const PICK_RADIUS: f32 = 9.0;
/// The kinds' colours, in the order of the kinds' names.
const PALETTE: [Color32; 8] = [
    Color32::from_rgb(230, 159, 0),
    Color32::from_rgb(86, 180, 233),
    Color32::from_rgb(0, 158, 115),
    Color32::from_rgb(240, 228, 66),
    Color32::from_rgb(213, 94, 0),
    Color32::from_rgb(204, 121, 167),
    Color32::from_rgb(160, 160, 255),
    Color32::from_rgb(200, 200, 200),
];

/// What the top-down view keeps between frames.
#[derive(Debug)]
pub(crate) struct TopDown {
    /// The world's (x, z) at the view's top left corner (so that the view does not
    /// shift when a panel beside it changes its width).
    corner: Vec2,
    /// Points per world unit; 0 until the view is fitted to the world.
    scale: f32,
    /// The entity being dragged, and its (x, z) minus the pointer's at the drag's start.
    dragging: Option<(EntityId, Vec2)>,
    /// Where the view was drawn in the last frame.
    rect: Rect,
}

impl Default for TopDown {
    fn default() -> TopDown {
        TopDown {
            corner: Vec2::ZERO,
            scale: 0.0,
            dragging: None,
            rect: Rect::NOTHING,
        }
    }
}

impl TopDown {
    /// Where world position `p` is on the screen.
    fn to_screen(&self, p: Vec3) -> Pos2 {
        self.rect.min + (Vec2::new(p.x, p.z) - self.corner) * self.scale
    }

    /// The world's (x, z) under screen point `pos`.
    fn to_world(&self, pos: Pos2) -> Vec2 {
        self.corner + (pos - self.rect.min) / self.scale
    }

    /// Zooms by `factor`, keeping the world point under `pos` where it is.
    fn zoom(&mut self, factor: f32, pos: Pos2) {
        let before = self.to_world(pos);
        self.scale = (self.scale * factor).clamp(1e-3, 1e4);
        self.corner += before - self.to_world(pos);
    }
}

impl EditorApp {
    /// Where the top-down view drew entity `id`'s marker in the last frame, or `None`
    /// when it was out of view (or the view not drawn yet).
    pub fn top_down_marker(&self, id: EntityId) -> Option<Pos2> {
        let view = &self.top_down;
        let entity = self.world.manager().entity(id)?;
        let pos = view.to_screen(entity.position());
        (view.scale > 0.0 && view.rect.contains(pos)).then_some(pos)
    }

    /// Fits the view to every entity's position.
    fn fit_top_down(&mut self) {
        let positions = self.world.manager().entities().iter().map(|e| e.position());
        let (min, max) = positions.fold(
            (Vec2::splat(f32::INFINITY), Vec2::splat(f32::NEG_INFINITY)),
            |(min, max), p| (min.min(Vec2::new(p.x, p.z)), max.max(Vec2::new(p.x, p.z))),
        );
        let view = &mut self.top_down;
        let (center, scale) = if min.x > max.x {
            (Vec2::ZERO, 10.0)
        } else {
            let size = (max - min).max(Vec2::splat(1.0));
            let room = (view.rect.size() - Vec2::splat(4.0 * PICK_RADIUS)).max(Vec2::splat(1.0));
            ((min + max) / 2.0, (room.x / size.x).min(room.y / size.y))
        };
        view.scale = scale;
        view.corner = center - view.rect.size() / 2.0 / scale;
    }

    /// The entity whose marker is nearest to screen point `pos`, within reach.
    fn marker_at(&self, pos: Pos2) -> Option<EntityId> {
        let view = &self.top_down;
        (self.world.manager().entities().iter())
            .map(|e| (e.id(), view.to_screen(e.position()).distance_sq(pos)))
            .filter(|(_, d)| *d <= PICK_RADIUS * PICK_RADIUS)
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(id, _)| id)
    }

    /// The colour of kind `class` in the view.
    fn kind_color(&self, class: &juliet_core::Class) -> Color32 {
        (self.kinds.iter())
            .position(|k| std::ptr::eq(*k, class))
            .map_or(Color32::GRAY, |i| PALETTE[i % PALETTE.len()])
    }

    /// Draws the top-down view into the rest of `ui`.
    pub(crate) fn top_down_ui(&mut self, ui: &mut Ui) {
        ui.horizontal(|ui| {
            ui.heading("Top-down view");
            ui.label("(x right, z down)");
            if ui
                .button("Fit")
                .on_hover_text("Show every entity")
                .clicked()
            {
                self.top_down.scale = 0.0;
            }
        });
        let (rect, response) = ui.allocate_exact_size(ui.available_size(), Sense::click_and_drag());
        response
            .widget_info(|| egui::WidgetInfo::labeled(egui::Role::Canvas, true, "Top-down view"));
        self.top_down.rect = rect;
        if self.top_down.scale <= 0.0 {
            self.fit_top_down();
        }
        self.top_down_input(ui, &response);
        let painter = ui.painter_at(rect);
        painter.rect_filled(rect, 0.0, ui.visuals().extreme_bg_color);
        let origin = self.top_down.to_screen(Vec3::ZERO);
        let axis = Stroke::new(1.0, ui.visuals().weak_text_color());
        painter.hline(rect.x_range(), origin.y, axis);
        painter.vline(origin.x, rect.y_range(), axis);
        self.paint_markers(&painter, ui);
        self.paint_legend(&painter);
        if let Some(id) = response.hover_pos().and_then(|p| self.marker_at(p)) {
            let pos = self
                .top_down
                .to_screen(self.world.manager().entity(id).expect("in view").position());
            let text = self.entity_name(id);
            let font = FontId::proportional(12.0);
            let color = ui.visuals().strong_text_color();
            painter.text(
                pos + Vec2::new(MARKER_RADIUS + 3.0, 0.0),
                Align2::LEFT_CENTER,
                text,
                font,
                color,
            );
        }
    }

    /// Paints the markers in view; the selected entity's is ringed.
    fn paint_markers(&self, painter: &egui::Painter, ui: &Ui) {
        let view = &self.top_down;
        let area = view.rect.expand(MARKER_RADIUS);
        let ring = Stroke::new(2.0, ui.visuals().strong_text_color());
        for entity in self.world.manager().entities() {
            let pos = view.to_screen(entity.position());
            if !area.contains(pos) {
                continue;
            }
            painter.circle_filled(pos, MARKER_RADIUS, self.kind_color(entity.class()));
            if self.selected == Some(entity.id()) {
                painter.circle_stroke(pos, MARKER_RADIUS + 3.0, ring);
            }
        }
    }

    /// Paints the kinds' names in their colours down the view's left side.
    fn paint_legend(&self, painter: &egui::Painter) {
        let font = FontId::proportional(12.0);
        let mut pos = self.top_down.rect.min + Vec2::splat(6.0);
        for class in &self.kinds {
            let color = self.kind_color(class);
            painter.circle_filled(pos + Vec2::new(4.0, 7.0), 4.0, color);
            let text = pos + Vec2::new(12.0, 0.0);
            painter.text(text, Align2::LEFT_TOP, class.name(), font.clone(), color);
            pos.y += 16.0;
        }
    }

    /// Clicks, drags and zooming in the view.
    fn top_down_input(&mut self, ui: &Ui, response: &egui::Response) {
        if let Some(pos) = response.hover_pos() {
            let (scroll, zoom) = ui.input(|i| (i.smooth_scroll_delta.y, i.zoom_delta()));
            if scroll != 0.0 || zoom != 1.0 {
                self.top_down.zoom(zoom * (scroll / 200.0).exp(), pos);
            }
        }
        if response.drag_started() {
            // Each drag is an undo step of its own, whatever holds the keyboard focus
            // (`EditorApp::ui` ends a step only when nothing does).
            self.close_step();
            let press = ui
                .input(|i| i.pointer.press_origin())
                .or(response.interact_pointer_pos());
            self.top_down.dragging = press.and_then(|pos| {
                let id = self.marker_at(pos)?;
                let p = self.world.manager().entity(id)?.position();
                Some((id, Vec2::new(p.x, p.z) - self.top_down.to_world(pos)))
            });
            if let Some((id, _)) = self.top_down.dragging {
                self.select_from_view(Some(id));
            }
        }
        if response.dragged() {
            match (self.top_down.dragging, response.interact_pointer_pos()) {
                (Some((id, offset)), Some(pos)) => {
                    let target = self.top_down.to_world(pos) + offset;
                    self.move_to(id, target);
                }
                _ => self.top_down.corner -= response.drag_delta() / self.top_down.scale,
            }
        }
        if response.drag_stopped() {
            self.top_down.dragging = None;
            self.close_step();
        }
        if response.clicked() {
            let id = response
                .interact_pointer_pos()
                .and_then(|p| self.marker_at(p));
            self.select_from_view(id);
        }
    }

    /// Selects `id` (or nothing) from the view; the outliner scrolls to it.
    fn select_from_view(&mut self, id: Option<EntityId>) {
        self.select(id);
        self.create_prompt = None;
        self.outliner.reveal = true;
    }

    /// Moves entity `id` to `(x, z)`, its height kept: an edit of its `Position`,
    /// recorded in the history (the edits of one drag are one step).
    fn move_to(&mut self, id: EntityId, target: Vec2) {
        let Some(entity) = self.world.manager().entity(id) else {
            return;
        };
        let y = entity.position().y;
        let text = format!("{} {} {}", target.x, y, target.y);
        self.perform(&Edit::Set {
            id,
            key: "Position".to_owned(),
            text,
        });
    }
}
