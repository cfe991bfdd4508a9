// fivedice handheld case: a front shell (OLED window, ten button holes, five pixel windows) and a back shell
// (the Pico, the buffer, the boost and 3xAA), screwed together through the perfboard's corners.
// `make case` renders both, laid out for printing, to build/case/fivedice_case.stl and a picture (.png).
// Parametric: every position below is in holes of the 0.1" perfboard (hole 0,0 at its bottom-left corner,
// seen from the front, the Pico's USB at the top edge); tools/layout.py draws the perfboard layout from the
// same numbers (hardware/layout-front.svg), so the case and the layout cannot disagree.
// Override any of them on the command line: openscad -D 'switch_height=5' -o case.stl fivedice_case.scad

pitch = 2.54;                 // perfboard hole pitch, mm
board_holes = [40, 32];       // perfboard size in holes (x, y): 101.6 x 81.3 mm
board_t = 1.6;                // perfboard thickness, mm
mount_holes = [[1, 1], [38, 1], [1, 30], [38, 30]];   // M3 holes, drilled through the perfboard at these holes

oled_at = [19.5, 23];         // centre of the OLED module (0.96" SSD1306, 4-pin header at its top edge)
oled_module = [27.3, 27.8];   // the module's board, mm
oled_window = [24, 13];       // the opening over the glass's lit area, mm
oled_window_up = 2.5;         // the lit area's centre sits this far above the module's centre, mm
oled_height = 4.5;            // the glass's top above the perfboard's front, mm: at most the lid's underside

hold_row = 11;                // the five hold buttons' row
hold_cols = [7.5, 13.5, 19.5, 25.5, 31.5];   // HOLD1..HOLD5, 6 holes (15.24 mm) apart
pixel_drop = 5;               // each die's pixel sits this many holes below its hold button
// ROLL, UP, DOWN, OK, BACK
keys = [[35.5, 4], [4.5, 26], [4.5, 19], [34.5, 19], [34.5, 26]];

switch_height = 7.3;          // a 6x6 mm tactile switch's height with its plunger, mm (the lid's top follows)
button_hole = 4.2;            // hole for the 3.5 mm round plunger, mm
pixel_window = 5.4;           // square window over each 5050 pixel, mm

wall = 2;                     // shell wall, mm
lid = 1.6;                    // front plate thickness, mm
gap = 0.4;                    // clearance around the perfboard, mm
back_depth = 30;              // room behind the perfboard: the Pico on headers (13 mm) over a 3xAA holder (15 mm)
usb = [12, 8];                // cut-out for the Pico's micro-USB plug in the top wall, mm (width, height)
usb_col = 19.5;               // the Pico's USB connector centre, holes (the Pico sits behind, USB at the top edge)
switch_slot = [9, 4.5];       // the power switch's slot in the right wall, mm
piezo_at = [31, 4];           // the piezo, on the back of the perfboard: the back shell's sound holes sit under it
post_d = 6;                   // screw post diameter, mm
screw_d = 3.2;                // M3 clearance, mm
$fn = 48;

function at(h) = [(h[0] + 0.5) * pitch, (h[1] + 0.5) * pitch];
board = [board_holes[0] * pitch, board_holes[1] * pitch];
outer = [board[0] + 2 * (wall + gap), board[1] + 2 * (wall + gap)];
front_h = switch_height - 1;  // the plungers stand 1 mm proud of the lid
assert(oled_height <= front_h - lid, "the OLED's glass would hit the lid: taller switches or a lower OLED");
off = wall + gap;             // perfboard origin inside the shells

module rounded(size, h, r = 3) {
    translate([r, r, 0]) linear_extrude(h) offset(r = r) square([size[0] - 2 * r, size[1] - 2 * r]);
}

module posts(h, hole) {
    for (m = mount_holes) translate(concat(at(m) + [off, off], 0)) difference() {
        cylinder(d = post_d, h = h);
        if (hole) translate([0, 0, -1]) cylinder(d = screw_d, h = h + 2);
    }
}

// the front shell, lid down as printed: z = 0 is the lid's outside, so it is mirrored (left-right) here to
// sit the right way round once turned over onto the perfboard
module front() mirror([1, 0, 0]) translate([-outer[0], 0, 0]) {
    difference() {
        rounded(outer, front_h);
        translate([wall, wall, lid]) cube([outer[0] - 2 * wall, outer[1] - 2 * wall, front_h]);
        o = at(oled_at) + [off, off];
        translate([o[0] - oled_window[0] / 2, o[1] + oled_window_up - oled_window[1] / 2, -1])
            cube([oled_window[0], oled_window[1], lid + 2]);
        for (c = hold_cols) translate(concat(at([c, hold_row]) + [off, off], -1)) cylinder(d = button_hole, h = lid + 2);
        for (k = keys) translate(concat(at(k) + [off, off], -1)) cylinder(d = button_hole, h = lid + 2);
        for (c = hold_cols) translate(concat(at([c, hold_row - pixel_drop]) + [off, off], -1))
            translate([-pixel_window / 2, -pixel_window / 2, 0]) cube([pixel_window, pixel_window, lid + 2]);
    }
    // posts from the lid down to the perfboard's front; the OLED module rests under the lid
    translate([0, 0, lid]) posts(front_h - lid, true);
}

// the back shell, floor down as printed: the perfboard rests on its posts and rim
module back() {
    h = back_depth + wall;
    difference() {
        rounded(outer, h);
        translate([wall, wall, wall]) cube([outer[0] - 2 * wall, outer[1] - 2 * wall, h]);
        // USB at the top edge, centred on the Pico's connector, just behind the perfboard
        translate([off + at([usb_col, 0])[0] - usb[0] / 2, outer[1] - wall - 1, h - usb[1] - 2])
            cube([usb[0], wall + 2, usb[1]]);
        translate([outer[0] - wall - 1, outer[1] / 2 - switch_slot[0] / 2, h / 2])
            cube([wall + 2, switch_slot[0], switch_slot[1]]);
        // the piezo's sound holes in the floor
        for (i = [-1 : 1], j = [-1 : 1]) translate(concat(at(piezo_at) + [off + i * 3, off + j * 3], -1))
            cylinder(d = 2, h = wall + 2);
    }
    posts(h, true);
}

front();
translate([outer[0] + 10, 0, 0]) back();
